/* The parameter-struct table (asc/structs.def), expanded into AscStructInfo
 * rows with their fields. */
#include <string.h>

#include "asc/ir.h"

static const AscFieldInfo fields[] = {
#define ASC_STRUCT(ID, name, cpp, init)
#define ASC_FIELD(ID, name, cpp, dtype, def) {name, cpp, ASC_DT_##dtype, def},
#include "asc/structs.def"
#undef ASC_STRUCT
#undef ASC_FIELD
};

/* The struct each field row belongs to, in the same order as fields[]. */
static const AscStructId field_owner[] = {
#define ASC_STRUCT(ID, name, cpp, init)
#define ASC_FIELD(ID, name, cpp, dtype, def) ASC_STRUCT_##ID,
#include "asc/structs.def"
#undef ASC_STRUCT
#undef ASC_FIELD
};

enum { N_FIELDS = sizeof fields / sizeof fields[0] };

/* The structs; their field ranges are found by first_field / count_fields
 * (a struct's ASC_FIELD rows follow its ASC_STRUCT row). */
static AscStructInfo structs[ASC_STRUCT_COUNT] = {
#define ASC_STRUCT(ID, name, cpp, init)                                        \
  [ASC_STRUCT_##ID] = {ASC_STRUCT_##ID,        name, cpp,                      \
                       ASC_STRUCT_INIT_##init, NULL, 0},
#define ASC_FIELD(ID, name, cpp, dtype, def)
#include "asc/structs.def"
#undef ASC_STRUCT
#undef ASC_FIELD
};

/* Filled on first use; the table is constant data, so a race only writes
 * the same values twice. */
static void link_fields(void) {
  for (int i = 0; i < N_FIELDS; i++) {
    AscStructInfo *s = &structs[field_owner[i]];
    if (!s->fields)
      s->fields = &fields[i];
    s->n_fields = (int)(&fields[i] - s->fields) + 1;
  }
}

const AscStructInfo *asc_struct_info(AscStructId id) {
  if ((int)id < 0 || id >= ASC_STRUCT_COUNT)
    return NULL;
  if (!structs[id].fields)
    link_fields();
  return &structs[id];
}

AscStructId asc_struct_from_name(const char *name) {
  for (int i = 0; i < ASC_STRUCT_COUNT; i++)
    if (strcmp(structs[i].name, name) == 0)
      return (AscStructId)i;
  return ASC_STRUCT_COUNT;
}

int asc_struct_field_index(const AscStructInfo *s, const char *name) {
  for (int i = 0; s && i < s->n_fields; i++)
    if (strcmp(s->fields[i].name, name) == 0)
      return i;
  return -1;
}
