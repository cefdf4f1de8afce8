/* Parameter structs: the table (asc/structs.def) expanded into
 * AscStructInfo rows, the instances of its templates, and the user's
 * structs a module defines.
 *
 * A value of a struct occupies one register slot per number (an array
 * field one per element), nested structs laid out in place
 * (AscFieldInfo.slot / width), so the lowering and the simulator see a
 * struct as `n_slots` consecutive slots. asc.struct takes one operand per
 * field, an array field one per element (AscFieldInfo.operand). A template
 * (DataCopyPadExtParams<T>) has no values; its instances are structs like
 * any other, with T's type in the fields of type T. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asc/ir.h"
#include "index.h"

/* ---- the table ----------------------------------------------------------- */

typedef struct FieldRow {
  AscStructId owner;
  AscFieldInfo info;
  int nested; /* a struct field: the AscStructId of its struct; else -1 */
} FieldRow;

/* AscFieldInfo: name, cpp, dtype, def, enum_kind, nested, slot, width, len,
 * is_t, operand (slot, width and operand are laid out by lay_out) */
static FieldRow field_rows[] = {
#define ASC_STRUCT(ID, name, cpp, init)
#define ASC_TEMPLATE(ID, def, allowed)
#define ASC_FIELD(ID, name, cpp, dtype, def)                                   \
  {ASC_STRUCT_##ID,                                                            \
   {name, cpp, ASC_DT_##dtype, def, -1, NULL, 0, 1, 0, 0, 0},                  \
   -1},
#define ASC_T_FIELD(ID, name, cpp, def)                                        \
  {ASC_STRUCT_##ID, {name, cpp, ASC_DT_NONE, def, -1, NULL, 0, 1, 0, 1, 0}, -1},
#define ASC_ARRAY_FIELD(ID, name, cpp, dtype, len, def)                        \
  {ASC_STRUCT_##ID,                                                            \
   {name, cpp, ASC_DT_##dtype, def, -1, NULL, 0, len, len, 0, 0},              \
   -1},
#define ASC_ENUM_FIELD(ID, name, cpp, kind, def)                               \
  {ASC_STRUCT_##ID,                                                            \
   {name, cpp, ASC_DT_INT32, def, ASC_ENUM_##kind, NULL, 0, 1, 0, 0, 0},       \
   -1},
#define ASC_STRUCT_FIELD(ID, name, cpp, nested)                                \
  {ASC_STRUCT_##ID,                                                            \
   {name, cpp, ASC_DT_NONE, 0, -1, NULL, 0, 0, 0, 0, 0},                       \
   ASC_STRUCT_##nested},
#include "asc/structs.def"
#undef ASC_STRUCT
#undef ASC_TEMPLATE
#undef ASC_FIELD
#undef ASC_T_FIELD
#undef ASC_ARRAY_FIELD
#undef ASC_ENUM_FIELD
#undef ASC_STRUCT_FIELD
};

enum { N_FIELD_ROWS = sizeof field_rows / sizeof field_rows[0] };

/* the fields of all structs, in table order (a struct's are contiguous) */
static AscFieldInfo fields[N_FIELD_ROWS + 1];

static AscStructInfo structs[ASC_STRUCT_COUNT + 1] = {
#define ASC_STRUCT(ID, name, cpp, init)                                        \
  [ASC_STRUCT_##ID] = {ASC_STRUCT_##ID,                                        \
                       name,                                                   \
                       cpp,                                                    \
                       ASC_STRUCT_INIT_##init,                                 \
                       NULL,                                                   \
                       0,                                                      \
                       0,                                                      \
                       0,                                                      \
                       0,                                                      \
                       ASC_DT_NONE,                                            \
                       ASC_DT_NONE,                                            \
                       "",                                                     \
                       NULL},
#define ASC_TEMPLATE(ID, def, allowed)
#define ASC_FIELD(ID, name, cpp, dtype, def)
#define ASC_T_FIELD(ID, name, cpp, def)
#define ASC_ARRAY_FIELD(ID, name, cpp, dtype, len, def)
#define ASC_ENUM_FIELD(ID, name, cpp, kind, def)
#define ASC_STRUCT_FIELD(ID, name, cpp, nested)
#include "asc/structs.def"
#undef ASC_STRUCT
#undef ASC_TEMPLATE
#undef ASC_FIELD
#undef ASC_T_FIELD
#undef ASC_ARRAY_FIELD
#undef ASC_ENUM_FIELD
#undef ASC_STRUCT_FIELD
};

/* the templates: which structs are, their default and allowed T */
typedef struct TemplateRow {
  AscStructId id;
  AscDType def;
  const char *allowed;
} TemplateRow;

static const TemplateRow template_rows[] = {
#define ASC_STRUCT(ID, name, cpp, init)
#define ASC_TEMPLATE(ID, def, allowed) {ASC_STRUCT_##ID, ASC_DT_##def, allowed},
#define ASC_FIELD(ID, name, cpp, dtype, def)
#define ASC_T_FIELD(ID, name, cpp, def)
#define ASC_ARRAY_FIELD(ID, name, cpp, dtype, len, def)
#define ASC_ENUM_FIELD(ID, name, cpp, kind, def)
#define ASC_STRUCT_FIELD(ID, name, cpp, nested)
#include "asc/structs.def"
#undef ASC_STRUCT
#undef ASC_TEMPLATE
#undef ASC_FIELD
#undef ASC_T_FIELD
#undef ASC_ARRAY_FIELD
#undef ASC_ENUM_FIELD
#undef ASC_STRUCT_FIELD
    {ASC_STRUCT_COUNT, ASC_DT_NONE, NULL} /* keeps the array non-empty */
};

static pthread_once_t link_once = PTHREAD_ONCE_INIT;

/* Slots and operands of s, its nested structs first (the table declares a
 * nested struct before the structs that contain it). A template has no
 * values: its instances are laid out when they are made. */
static void lay_out(AscStructInfo *s) {
  if (s->n_slots || !s->fields || s->is_template)
    return;
  int slot = 0, operand = 0;
  for (int i = 0; i < s->n_fields; i++) {
    AscFieldInfo *f = (AscFieldInfo *)&s->fields[i];
    if (f->nested)
      lay_out((AscStructInfo *)f->nested);
    f->slot = slot;
    f->width = f->nested ? f->nested->n_slots : f->len > 0 ? f->len : 1;
    f->operand = operand;
    slot += f->width;
    operand += f->len > 0 ? f->len : 1;
  }
  s->n_slots = slot;
  s->n_operands = operand;
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
  for (size_t i = 0; template_rows[i].id != ASC_STRUCT_COUNT; i++) {
    AscStructInfo *s = &structs[template_rows[i].id];
    s->is_template = 1;
    s->tdefault = template_rows[i].def;
    s->tallowed = template_rows[i].allowed;
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
  for (int i = 0; name && i < ASC_STRUCT_COUNT; i++)
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

int asc_struct_operand_field(const AscStructInfo *s, int k, int *elem) {
  for (int i = 0; s && i < s->n_fields; i++) {
    const AscFieldInfo *f = &s->fields[i];
    int n = f->len > 0 ? f->len : 1;
    if (k >= f->operand && k < f->operand + n) {
      if (elem)
        *elem = k - f->operand;
      return i;
    }
  }
  return -1;
}

/* ---- template instances ------------------------------------------------ */

int asc_struct_template_allows(const AscStructInfo *tmpl, AscDType t) {
  if (!tmpl || !tmpl->is_template || t == ASC_DT_NONE || t == ASC_DT_INDEX ||
      t == ASC_DT_BOOL || (int)t < 0 || t >= ASC_DT_COUNT)
    return 0;
  const char *allowed = tmpl->tallowed ? tmpl->tallowed : "";
  if (!*allowed)
    return 1;
  const char *want = asc_dtype_ir_name(t);
  size_t n = strlen(want);
  for (const char *p = allowed; *p;) {
    const char *end = strchr(p, ',');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    if (len == n && strncmp(p, want, n) == 0)
      return 1;
    p += len + (end ? 1 : 0);
  }
  return 0;
}

/* Instances are made once per (template, T) and never freed: like the
 * table they outlive every context (types in many contexts point at them).
 * The lock guards making them; a made instance is never changed. */
static pthread_mutex_t instance_lock = PTHREAD_MUTEX_INITIALIZER;
static AscStructInfo *instances[ASC_STRUCT_COUNT][ASC_DT_COUNT];

static char *fmt_name(const char *a, const char *b) {
  size_t n = strlen(a) + strlen(b) + 3;
  char *s = malloc(n);
  if (s)
    snprintf(s, n, "%s<%s>", a, b);
  return s;
}

/* Makes the instance (called with the lock held). */
static AscStructInfo *instantiate(const AscStructInfo *tmpl, AscDType t) {
  AscStructInfo *s = calloc(1, sizeof *s);
  AscFieldInfo *fs = calloc((size_t)tmpl->n_fields, sizeof *fs);
  char *name = fmt_name(tmpl->name, asc_dtype_ir_name(t));
  char *cpp = fmt_name(tmpl->cpp, asc_dtype_cpp_name(t));
  int ok = s && fs && name && cpp;
  for (int i = 0; ok && i < tmpl->n_fields; i++) {
    fs[i] = tmpl->fields[i];
    if (fs[i].is_t)
      fs[i].dtype = t;
    if (fs[i].nested && fs[i].nested->is_template) {
      AscStructInfo **slot = &instances[fs[i].nested->id][t];
      if (!*slot)
        *slot = instantiate(fs[i].nested, t);
      fs[i].nested = *slot;
      ok = *slot != NULL;
    }
  }
  if (!ok) {
    free(s);
    free(fs);
    free(name);
    free(cpp);
    return NULL;
  }
  *s = *tmpl;
  s->name = name;
  s->cpp = cpp;
  s->fields = fs;
  s->is_template = 0;
  s->targ = t;
  s->tmpl = tmpl;
  s->n_slots = s->n_operands = 0;
  lay_out(s);
  return s;
}

const AscStructInfo *asc_struct_instance(const AscStructInfo *tmpl,
                                         AscDType t) {
  if (!asc_struct_template_allows(tmpl, t) || tmpl->id == ASC_STRUCT_USER)
    return NULL;
  pthread_mutex_lock(&instance_lock);
  AscStructInfo **slot = &instances[tmpl->id][t];
  if (!*slot)
    *slot = instantiate(tmpl, t);
  const AscStructInfo *s = *slot;
  pthread_mutex_unlock(&instance_lock);
  return s;
}

/* The instance a name "Template<dtype>" spells; NULL if it spells none. */
static const AscStructInfo *instance_by_name(const char *name) {
  const char *lt = strchr(name, '<');
  size_t n = strlen(name);
  char base[96], arg[32];
  if (!lt || n < 2 || name[n - 1] != '>' ||
      (size_t)(lt - name) >= sizeof base ||
      n - (size_t)(lt - name) - 2 >= sizeof arg)
    return NULL;
  memcpy(base, name, (size_t)(lt - name));
  base[lt - name] = 0;
  memcpy(arg, lt + 1, n - (size_t)(lt - name) - 2);
  arg[n - (size_t)(lt - name) - 2] = 0;
  AscStructId id = asc_struct_from_name(base);
  return id == ASC_STRUCT_COUNT ? NULL
                                : asc_struct_instance(asc_struct_info(id),
                                                      asc_dtype_from_name(arg));
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
  if (name && strchr(name, '<'))
    return instance_by_name(name);
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
