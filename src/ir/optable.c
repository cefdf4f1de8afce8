/* The op table, expanded from ops.def, with its signature strings parsed
 * into AscOpInfo, each row at its first use: a process that runs a kernel
 * from the disk cache parses the twenty rows it uses, not all of them
 * (about 0.6 ms of its first launch: docs/performance.md). */
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "asc/ir.h"
#include "hash.h"

typedef struct OpRow {
  const char *name, *cpp;
  AscPipe pipe;
  AscEmit emit;
  const char *operands, *results, *attrs;
  AscCost cost;
} OpRow;

static const OpRow rows[ASC_OP_COUNT] = {
#define ASC_OP(ID, name, cpp, pipe, emit, exec, sub, operands, results, attrs, \
               cost)                                                           \
  [ASC_OP_##ID] = {name,     cpp,     ASC_PIPE_##pipe, ASC_EMIT_##emit,        \
                   operands, results, attrs,           ASC_COST_##cost},
#include "ops.def"
#undef ASC_OP
};

static AscOpInfo infos[ASC_OP_COUNT];
/* infos[i] is complete once ready[i] is set (release / acquire); the lock
 * serialises the parses (and the name pool they copy into) */
static atomic_uchar ready[ASC_OP_COUNT];
static pthread_mutex_t infos_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t names_once = PTHREAD_ONCE_INIT;

/* Signature strings live as long as the program; each item is copied into
 * a small static pool so names can be NUL-terminated. */
static char name_pool[32768];
static size_t name_pool_used;

static const char *pool_copy(const char *s, size_t n) {
  if (name_pool_used + n + 1 > sizeof name_pool)
    return "?";
  char *d = name_pool + name_pool_used;
  memcpy(d, s, n);
  d[n] = 0;
  name_pool_used += n + 1;
  return d;
}

/* The Python API of a copy row: "asc.data_copy.params.gm_to_local" is one
 * form of asc.data_copy (0: not a copy row). */
static size_t copy_api_length(const char *name) {
  static const char *const dirs[] = {".gm_to_local", ".local_to_gm",
                                     ".local_to_local"};
  size_t n = strlen(name);
  for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
    size_t k = strlen(dirs[i]);
    if (n > k && strcmp(name + n - k, dirs[i]) == 0 &&
        strncmp(name, "asc.", 4) == 0) {
      const char *dot = strchr(name + 4, '.');
      return (size_t)(dot - name);
    }
  }
  return 0;
}

/* AscOpInfo.api: an IR name "asc.X.l0" reads "asc.X (level-0 form)", a
 * copy row its API's name. */
static const char *api_spelling(const char *name) {
  static const char suffix[] = ".l0", form[] = " (level-0 form)";
  size_t n = strlen(name), k = sizeof suffix - 1;
  size_t copy = copy_api_length(name);
  if (copy)
    return pool_copy(name, copy);
  if (n <= k || strcmp(name + n - k, suffix) != 0)
    return name;
  char buf[128];
  if (n - k + sizeof form > sizeof buf)
    return name;
  memcpy(buf, name, n - k);
  memcpy(buf + n - k, form, sizeof form);
  return pool_copy(buf, strlen(buf));
}

/* Calls item(s, n) for each comma-separated item of spec. */
static int split(const char *spec, const char **items, size_t *lens, int max) {
  int n = 0;
  const char *p = spec;
  while (*p && n < max) {
    const char *e = strchr(p, ',');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    items[n] = p;
    lens[n] = len;
    n++;
    if (!e)
      break;
    p = e + 1;
  }
  return n;
}

/* The struct of an S{NAME} operand (ASC_STRUCT_COUNT: a typo in ops.def,
 * which test_ir catches). */
static AscStructId struct_named(const char *s, size_t n) {
  char name[64];
  if (n >= sizeof name)
    return ASC_STRUCT_COUNT;
  memcpy(name, s, n);
  name[n] = 0;
  return asc_struct_from_name(name);
}

static void parse_operands(AscOpInfo *info, const char *spec) {
  const char *items[ASC_MAX_SIG];
  size_t lens[ASC_MAX_SIG];
  int n = split(spec, items, lens, ASC_MAX_SIG);
  info->n_required = 0;
  for (int i = 0; i < n; i++) {
    const char *colon = memchr(items[i], ':', lens[i]);
    size_t name_len = colon ? (size_t)(colon - items[i]) : lens[i];
    const char *k = colon ? colon + 1 : "*";
    size_t klen = lens[i] - name_len - (colon ? 1 : 0);
    if (klen >= 3 && strncmp(k + klen - 3, "...", 3) == 0) {
      info->variadic = 1;
      continue; /* the variadic tail is always last */
    }
    AscOperandSpec *o = &info->operands[info->n_operands++];
    o->name = pool_copy(items[i], name_len);
    o->kind = k[0];
    size_t j = 1;
    /* a C parameter type in IR spelling (i32, ui8, ...): an integer */
    size_t t = k[0] == 'u' && klen > 1 && k[1] == 'i' ? 2 : 1;
    if ((k[0] == 'i' || t == 2) && t < klen && k[t] >= '0' && k[t] <= '9') {
      while (t < klen && k[t] >= '0' && k[t] <= '9')
        t++;
      char cname[8] = {0};
      memcpy(cname, k, t < sizeof cname ? t : sizeof cname - 1);
      o->kind = ASC_OK_INT;
      o->ctype = asc_dtype_from_name(cname);
      j = t;
    }
    o->struct_id = -1;
    if (k[0] == ASC_OK_STRUCT && klen > 2 && k[1] == '{') {
      const char *close = memchr(k, '}', klen);
      o->struct_id = close ? (int)struct_named(k + 2, (size_t)(close - k - 2))
                           : (int)ASC_STRUCT_COUNT;
      j = close ? (size_t)(close - k) + 1 : klen;
    }
    for (; j < klen; j++) {
      if (k[j] == 'r')
        o->reads = 1;
      else if (k[j] == 'w')
        o->writes = 1;
      else if (k[j] == '?')
        o->optional = 1;
      else if (k[j] == 'o')
        o->own_dtype = 1;
    }
    if (!o->optional)
      info->n_required = info->n_operands;
  }
}

static void parse_results(AscOpInfo *info, const char *spec) {
  const char *items[ASC_MAX_SIG];
  size_t lens[ASC_MAX_SIG];
  int n = split(spec, items, lens, ASC_MAX_SIG);
  for (int i = 0; i < n; i++) {
    if (lens[i] >= 4 && strncmp(items[i] + 1, "...", 3) == 0) {
      info->variadic_results = 1;
      continue;
    }
    info->result_struct_ids[info->n_results] = -1;
    if (items[i][0] == ASC_OK_STRUCT && lens[i] > 2 && items[i][1] == '{') {
      const char *close = memchr(items[i], '}', lens[i]);
      info->result_struct_ids[info->n_results] =
          close
              ? (int)struct_named(items[i] + 2, (size_t)(close - items[i] - 2))
              : (int)ASC_STRUCT_COUNT;
    }
    info->results[info->n_results++] = items[i][0];
  }
}

static void parse_attrs(AscOpInfo *info, const char *spec) {
  const char *items[ASC_MAX_SIG];
  size_t lens[ASC_MAX_SIG];
  int n = split(spec, items, lens, ASC_MAX_SIG);
  for (int i = 0; i < n; i++) {
    const char *colon = memchr(items[i], ':', lens[i]);
    if (!colon)
      continue;
    AscAttrSpec *a = &info->attrs[info->n_attrs++];
    size_t name_len = (size_t)(colon - items[i]);
    size_t klen = lens[i] - name_len - 1;
    a->name = pool_copy(items[i], name_len);
    if (klen && colon[klen] == '?') {
      a->optional = 1;
      klen--;
    }
    a->kind = pool_copy(colon + 1, klen);
  }
}

/* Op names → ids, open addressing (slot value id + 1; 0 is empty): the
 * parser and the Python builder look a name up for every op they create,
 * and a scan of the table each time is ~100 string compares. */
enum { NAME_SLOTS = 2048 };
_Static_assert(ASC_OP_COUNT * 2 <= NAME_SLOTS, "grow NAME_SLOTS");
static short name_slots[NAME_SLOTS];

static size_t name_slot(const char *name) {
  size_t i = asc_hash_bytes(name, strlen(name)) & (NAME_SLOTS - 1);
  while (name_slots[i] && strcmp(rows[name_slots[i] - 1].name, name) != 0)
    i = (i + 1) & (NAME_SLOTS - 1);
  return i;
}

/* AscOpInfo.count_operand: a row whose tensors are dst / src / src0 / src1
 * only, with a `count` operand, touches count elements of each tensor from
 * its start (elementwise ops, count-form copies); the other rows (a work
 * buffer, offsets, masks) may touch more. */
static int count_operand(const AscOpInfo *info) {
  static const char *const names[] = {"dst", "src", "src0", "src1"};
  int count = -1;
  for (int i = 0; i < info->n_operands; i++) {
    const AscOperandSpec *sp = &info->operands[i];
    if (strcmp(sp->name, "count") == 0 && !sp->optional)
      count = i;
    if (sp->kind != ASC_OK_LOCAL && sp->kind != ASC_OK_GLOBAL)
      continue;
    int known = 0;
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
      known |= strcmp(sp->name, names[k]) == 0;
    if (!known)
      return -1;
  }
  return info->variadic ? -1 : count;
}

static void init_names(void) {
  for (int i = 0; i < ASC_OP_COUNT; i++) {
    if (!rows[i].name)
      continue;
    size_t slot = name_slot(rows[i].name);
    if (!name_slots[slot]) /* the first row of a name wins, as in a scan */
      name_slots[slot] = (short)(i + 1);
  }
}

static void init_info(int i) {
  AscOpInfo *info = &infos[i];
  const OpRow *r = &rows[i];
  info->id = (AscOpId)i;
  info->name = r->name;
  info->api = api_spelling(r->name);
  info->cpp = r->cpp;
  info->pipe = r->pipe;
  info->emit = r->emit;
  info->cost = r->cost;
  parse_operands(info, r->operands);
  parse_results(info, r->results);
  parse_attrs(info, r->attrs);
  info->count_operand = count_operand(info);
}

/* fork: a child must not inherit the lock held by a thread of the parent
 * that is parsing a row (the child has no such thread) */
static void fork_prepare(void) { pthread_mutex_lock(&infos_lock); }
static void fork_release(void) { pthread_mutex_unlock(&infos_lock); }
static pthread_once_t fork_once = PTHREAD_ONCE_INIT;
static void register_fork(void) {
  (void)pthread_atfork(fork_prepare, fork_release, fork_release);
}

const AscOpInfo *asc_op_info(AscOpId id) {
  if ((int)id < 0 || id >= ASC_OP_COUNT)
    return NULL;
  if (!atomic_load_explicit(&ready[id], memory_order_acquire)) {
    pthread_once(&fork_once, register_fork);
    pthread_mutex_lock(&infos_lock);
    if (!atomic_load_explicit(&ready[id], memory_order_relaxed)) {
      init_info((int)id);
      atomic_store_explicit(&ready[id], 1, memory_order_release);
    }
    pthread_mutex_unlock(&infos_lock);
  }
  return &infos[id];
}

int asc_op_is_tile(AscOpId id) {
  return (int)id >= 0 && id < ASC_OP_COUNT && rows[id].name &&
         strncmp(rows[id].name, "asc2.", 5) == 0;
}

AscOpId asc_op_from_name(const char *name) {
  pthread_once(&names_once, init_names);
  short id = name_slots[name_slot(name)];
  return id ? (AscOpId)(id - 1) : ASC_OP_COUNT;
}
