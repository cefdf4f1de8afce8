/* Unit test of the IR core: context and arena, types, the op table, enums,
 * building IR by hand, editing it, and the printer. The verifier's and the
 * lowering's rejections are in test_verifier.c.
 *
 * Every failure prints file:line; the last line is the summary. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asc/exec.h"
#include "asc/ir.h"
#include "asc/passes.h"
#include "exec/bytecode.h" /* asc_slot_width */

#include "check.h"
#include "ir_builder.h"

/* ---- context and arena --------------------------------------------------- */

static void test_arena(void) {
  AscContext *ctx = asc_context_new();
  CHECK(ctx != NULL);
  CHECK_EQ(asc_context_status(ctx), ASC_OK);
  CHECK_STREQ(asc_context_message(ctx), "");

  enum { N = 20000 };
  unsigned char **ps = malloc(sizeof(unsigned char *) * N);
  int aligned = 1, zeroed = 1;
  for (int i = 0; i < N; i++) {
    size_t sz = (size_t)(i % 197) + 1;
    ps[i] = asc_alloc(ctx, sz);
    if ((uintptr_t)ps[i] % 16)
      aligned = 0;
    for (size_t k = 0; k < sz; k++)
      if (ps[i][k])
        zeroed = 0;
    memset(ps[i], i & 0xff, sz);
  }
  CHECK(aligned);
  CHECK(zeroed);
  int intact = 1;
  for (int i = 0; i < N; i++) {
    size_t sz = (size_t)(i % 197) + 1;
    for (size_t k = 0; k < sz; k++)
      if (ps[i][k] != (unsigned char)(i & 0xff))
        intact = 0;
  }
  CHECK(intact); /* no two allocations overlap */
  free(ps);

  /* larger than a chunk */
  size_t big = 1u << 20;
  unsigned char *p = asc_alloc(ctx, big);
  CHECK(p != NULL);
  int big_zero = 1;
  for (size_t k = 0; k < big; k++)
    if (p[k])
      big_zero = 0;
  CHECK(big_zero);
  memset(p, 0xab, big);
  unsigned char *q = asc_alloc(ctx, 32);
  CHECK(q != NULL && (q + 32 <= p || q >= p + big));
  CHECK_EQ(q[0], 0);

  const char *s = "hello, arena";
  const char *d = asc_strdup(ctx, s);
  CHECK(d != s);
  CHECK_STREQ(d, s);
  CHECK(asc_strdup(ctx, NULL) == NULL);
  CHECK_STREQ(asc_strdup(ctx, ""), "");
  /* many strings stay distinct */
  const char *strs[500];
  char tmp[32];
  for (int i = 0; i < 500; i++) {
    snprintf(tmp, sizeof tmp, "name_%d", i);
    strs[i] = asc_strdup(ctx, tmp);
  }
  int all_ok = 1;
  for (int i = 0; i < 500; i++) {
    snprintf(tmp, sizeof tmp, "name_%d", i);
    if (strcmp(strs[i], tmp) != 0)
      all_ok = 0;
  }
  CHECK(all_ok);

  /* errors: the first one wins until cleared */
  AscLoc l1 = {"a.py", 3, 7}, l2 = {"b.py", 9, 1};
  CHECK_EQ(asc_error(ctx, ASC_ERR_COMPILE, l1, "first %d", 1), ASC_ERR_COMPILE);
  CHECK_EQ(asc_error(ctx, ASC_ERR_KERNEL, l2, "second"), ASC_ERR_COMPILE);
  CHECK_EQ(asc_context_status(ctx), ASC_ERR_COMPILE);
  CHECK_STREQ(asc_context_message(ctx), "first 1");
  CHECK_EQ(asc_context_error_loc(ctx).line, 3);
  CHECK_EQ(asc_context_error_loc(ctx).col, 7);
  asc_context_clear_error(ctx);
  CHECK_EQ(asc_context_status(ctx), ASC_OK);
  CHECK_STREQ(asc_context_message(ctx), "");
  CHECK_EQ(asc_context_error_loc(ctx).line, 0);
  CHECK_EQ(asc_error(ctx, ASC_ERR_KERNEL, l2, "second"), ASC_ERR_KERNEL);
  CHECK_EQ(asc_context_error_loc(ctx).line, 9);
  /* a long message is truncated, not overflowed */
  asc_context_clear_error(ctx);
  char longmsg[5000];
  memset(longmsg, 'x', sizeof longmsg - 1);
  longmsg[sizeof longmsg - 1] = 0;
  asc_error(ctx, ASC_ERR_COMPILE, l1, "%s", longmsg);
  CHECK(strlen(asc_context_message(ctx)) > 100);
  CHECK(strlen(asc_context_message(ctx)) < sizeof longmsg - 1);

  asc_context_free(ctx);
  asc_context_free(NULL); /* harmless */
}

/* ---- types -------------------------------------------------------------- */

static void check_format(const AscType *t, const char *want, const char *file,
                         int line) {
  char buf[128];
  asc_type_format(t, buf, sizeof buf);
  report(strcmp(buf, want) == 0, file, line,
         "type format: got \"%s\", "
         "expected \"%s\"",
         buf, want);
}
#define CHECK_FORMAT(t, want) check_format(t, want, __FILE__, __LINE__)

static void test_types(void) {
  B b;
  b_init(&b, "types");
  AscContext *c = b.ctx;
  /* interning: same parameters, same pointer */
  CHECK(asc_type_scalar(c, ASC_DT_INT32) == b.i32);
  CHECK(asc_type_get(c, ASC_TY_SCALAR, ASC_DT_INT32, -1, 0) == b.i32);
  CHECK(asc_type_get(c, ASC_TY_LOCAL_TENSOR, ASC_DT_FLOAT32,
                     ASC_TPOSITION_VECIN, 0) == b.lt_f32);
  CHECK(asc_type_get(c, ASC_TY_TQUE, ASC_DT_NONE, ASC_TPOSITION_VECIN, 2) ==
        b.que);
  CHECK(asc_type_get(c, ASC_TY_TPIPE, ASC_DT_NONE, -1, 0) == b.pipe);
  /* different parameters, different pointers */
  CHECK(b.i32 != b.i64);
  CHECK(b.lt_f32 != b.lt_f32_out);
  CHECK(b.lt_f32 != b.lt_f16);
  CHECK(b.ga_f32 != b.gt_f32);
  CHECK(asc_type_get(c, ASC_TY_TQUE, ASC_DT_NONE, ASC_TPOSITION_VECIN, 1) !=
        b.que);
  CHECK_EQ(b.lt_f32->kind, ASC_TY_LOCAL_TENSOR);
  CHECK_EQ(b.lt_f32->dtype, ASC_DT_FLOAT32);
  CHECK_EQ(b.lt_f32->position, ASC_TPOSITION_VECIN);
  CHECK_EQ(b.que->depth, 2);

  /* formatting of every kind */
  CHECK_FORMAT(b.i1, "i1");
  CHECK_FORMAT(b.i32, "i32");
  CHECK_FORMAT(b.idx, "index");
  CHECK_FORMAT(b.f16, "f16");
  CHECK_FORMAT(asc_type_scalar(c, ASC_DT_BFLOAT16), "bf16");
  CHECK_FORMAT(asc_type_scalar(c, ASC_DT_UINT8), "ui8");
  CHECK_FORMAT(b.ga_f32, "!asc.global_address<f32>");
  CHECK_FORMAT(b.gt_f16, "!asc.global_tensor<f16>");
  CHECK_FORMAT(b.lt_f32, "!asc.local_tensor<f32, VECIN>");
  CHECK_FORMAT(b.lt_f32_out, "!asc.local_tensor<f32, VECOUT>");
  CHECK_FORMAT(b.lt_i32, "!asc.local_tensor<i32, VECCALC>");
  CHECK_FORMAT(b.pipe, "!asc.tpipe");
  CHECK_FORMAT(b.que, "!asc.tque<VECIN, 2>");
  CHECK_FORMAT(
      asc_type_get(c, ASC_TY_TQUE, ASC_DT_NONE, ASC_TPOSITION_VECOUT, 1),
      "!asc.tque<VECOUT, 1>");
  CHECK_FORMAT(b.buf, "!asc.tbuf<VECCALC>");
  /* a short buffer is truncated and terminated */
  char small[8];
  memset(small, 'z', sizeof small);
  asc_type_format(b.lt_f32, small, sizeof small);
  CHECK_EQ(strlen(small), 7);
  CHECK_STREQ(small, "!asc.lo");

  /* predicates */
  CHECK(asc_type_is_int(b.i32));
  CHECK(asc_type_is_int(b.idx));
  CHECK(asc_type_is_int(b.i1));
  CHECK(!asc_type_is_int(b.f32));
  CHECK(!asc_type_is_int(b.lt_i32));
  CHECK(asc_type_is_float(b.f16));
  CHECK(!asc_type_is_float(b.i32));
  CHECK(!asc_type_is_float(b.gt_f32));
  CHECK(asc_type_is_tensor(b.lt_f32));
  CHECK(asc_type_is_tensor(b.gt_f32));
  CHECK(!asc_type_is_tensor(b.ga_f32));
  CHECK(!asc_type_is_tensor(b.f32));

  /* interning keeps working with many distinct types (every position and
   * dtype of local tensors, queues of many depths) */
  const AscType *first[ASC_DT_COUNT][12];
  for (int dt = 1; dt < ASC_DT_COUNT; dt++)
    for (int pos = 0; pos < 12; pos++)
      first[dt][pos] =
          asc_type_get(c, ASC_TY_LOCAL_TENSOR, (AscDType)dt, pos, 0);
  const AscType *ques[300];
  for (int d = 0; d < 300; d++)
    ques[d] =
        asc_type_get(c, ASC_TY_TQUE, ASC_DT_NONE, ASC_TPOSITION_VECIN, d + 1);
  int same = 1, distinct = 1;
  for (int dt = 1; dt < ASC_DT_COUNT; dt++)
    for (int pos = 0; pos < 12; pos++)
      if (asc_type_get(c, ASC_TY_LOCAL_TENSOR, (AscDType)dt, pos, 0) !=
          first[dt][pos])
        same = 0;
  for (int d = 0; d < 300; d++) {
    if (asc_type_get(c, ASC_TY_TQUE, ASC_DT_NONE, ASC_TPOSITION_VECIN, d + 1) !=
        ques[d])
      same = 0;
    if (d && ques[d] == ques[d - 1])
      distinct = 0;
  }
  CHECK(same);
  CHECK(distinct);
  CHECK(asc_type_get(c, ASC_TY_TQUE, ASC_DT_NONE, ASC_TPOSITION_VECIN, 2) ==
        b.que);
  CHECK_EQ(asc_context_status(c), ASC_OK);
  b_free(&b);
}

static void test_dtypes(void) {
  CHECK_EQ(asc_dtype_size(ASC_DT_NONE), 0);
  CHECK_EQ(asc_dtype_size(ASC_DT_BOOL), 1);
  CHECK_EQ(asc_dtype_size(ASC_DT_FLOAT16), 2);
  CHECK_EQ(asc_dtype_size(ASC_DT_BFLOAT16), 2);
  CHECK_EQ(asc_dtype_size(ASC_DT_INT32), 4);
  CHECK_EQ(asc_dtype_size(ASC_DT_FLOAT32), 4);
  CHECK_EQ(asc_dtype_size(ASC_DT_INDEX), 8);
  CHECK_STREQ(asc_dtype_name(ASC_DT_FLOAT16), "float16");
  CHECK_STREQ(asc_dtype_ir_name(ASC_DT_FLOAT16), "f16");
  CHECK_STREQ(asc_dtype_cpp_name(ASC_DT_FLOAT16), "half");
  CHECK_STREQ(asc_dtype_cpp_name(ASC_DT_BFLOAT16), "bfloat16_t");
  int round_trip = 1;
  for (int i = 1; i < ASC_DT_COUNT; i++)
    if ((int)asc_dtype_from_name(asc_dtype_name((AscDType)i)) != i ||
        (int)asc_dtype_from_name(asc_dtype_ir_name((AscDType)i)) != i)
      round_trip = 0;
  CHECK(round_trip);
  CHECK_EQ(asc_dtype_from_name("float128"), ASC_DT_NONE);
  CHECK(asc_dtype_is_float(ASC_DT_BFLOAT16));
  CHECK(asc_dtype_is_signed_int(ASC_DT_INDEX));
  CHECK(asc_dtype_is_unsigned_int(ASC_DT_UINT16));
  CHECK(!asc_dtype_is_int(ASC_DT_FLOAT32));
  CHECK(!asc_dtype_is_int(ASC_DT_NONE));
  CHECK_STREQ(asc_dtype_name((AscDType)99), "void"); /* out of range */
}

/* ---- the op table -------------------------------------------------------- */

/* (family listtensor: D a TensorDesc, T a ListTensorDesc) */
static int valid_kind(char k) {
  return k && strchr("LGAifnPQBSDT*", k) != NULL;
}

static void test_op_table(void) {
  int all_named = 1, round_trip = 1, ids_ok = 1, unique = 1, kinds_ok = 1;
  int optional_last = 1, attrs_ok = 1;
  for (int i = 0; i < ASC_OP_COUNT; i++) {
    const AscOpInfo *info = asc_op_info((AscOpId)i);
    if (!info || !info->name || !info->name[0]) {
      all_named = 0;
      printf("  op %d has no name\n", i);
      continue;
    }
    if (info->id != (AscOpId)i)
      ids_ok = 0;
    if (asc_op_from_name(info->name) != (AscOpId)i) {
      round_trip = 0;
      printf("  asc_op_from_name(\"%s\") != %d\n", info->name, i);
    }
    for (int j = 0; j < i; j++)
      if (strcmp(asc_op_info((AscOpId)j)->name, info->name) == 0)
        unique = 0;
    int seen_optional = 0;
    for (int k = 0; k < info->n_operands; k++) {
      const AscOperandSpec *o = &info->operands[k];
      if (!valid_kind(o->kind) || !o->name || !o->name[0] ||
          (o->kind == 'S' && o->struct_id != -1 &&
           !asc_struct_info((AscStructId)o->struct_id))) {
        kinds_ok = 0;
        printf("  %s operand %d: bad kind or name\n", info->name, k);
      }
      if (o->optional)
        seen_optional = 1;
      else if (seen_optional)
        optional_last = 0;
    }
    if (info->n_required > info->n_operands || info->n_required < 0)
      optional_last = 0;
    for (int k = 0; k < info->n_results; k++)
      if (!valid_kind(info->results[k]) ||
          (info->results[k] == 'S' && info->result_struct_ids[k] != -1 &&
           !asc_struct_info((AscStructId)info->result_struct_ids[k])))
        kinds_ok = 0;
    for (int k = 0; k < info->n_attrs; k++) {
      const char *ak = info->attrs[k].kind;
      if (!(strcmp(ak, "int") == 0 || strcmp(ak, "float") == 0 ||
            strcmp(ak, "str") == 0 || strcmp(ak, "types") == 0 ||
            strcmp(ak, "any") == 0 ||
            asc_enum_kind_from_name(ak) != ASC_ENUM_KIND_COUNT)) {
        attrs_ok = 0;
        printf("  %s attribute %s: unknown kind %s\n", info->name,
               info->attrs[k].name, ak);
      }
    }
  }
  CHECK(all_named);
  CHECK(round_trip);
  CHECK(ids_ok);
  CHECK(unique);
  CHECK(kinds_ok);
  CHECK(optional_last);
  CHECK(attrs_ok);
  CHECK(asc_op_info(ASC_OP_COUNT) == NULL);
  CHECK(asc_op_info((AscOpId)-1) == NULL);
  CHECK_EQ(asc_op_from_name("asc.no_such_op"), ASC_OP_COUNT);
  CHECK_EQ(asc_op_from_name(""), ASC_OP_COUNT);
  CHECK_EQ(asc_op_from_name("asc.add"), ASC_OP_ADD);
  CHECK_EQ(asc_op_from_name("scf.for"), ASC_OP_FOR);

  /* asc.add: dst/src0/src1/count, dst written, sources read */
  const AscOpInfo *add = asc_op_info(ASC_OP_ADD);
  CHECK_STREQ(add->name, "asc.add");
  CHECK_STREQ(add->cpp, "AscendC::Add");
  CHECK_EQ(add->pipe, ASC_PIPE_V);
  CHECK_EQ(add->emit, ASC_EMIT_CALL);
  CHECK_EQ(add->n_operands, 4);
  CHECK_EQ(add->n_required, 4);
  CHECK_EQ(add->variadic, 0);
  CHECK_EQ(add->n_results, 0);
  CHECK_EQ(add->variadic_results, 0);
  CHECK_EQ(add->n_attrs, 0);
  CHECK_STREQ(add->operands[0].name, "dst");
  CHECK_STREQ(add->operands[1].name, "src0");
  CHECK_STREQ(add->operands[2].name, "src1");
  CHECK_STREQ(add->operands[3].name, "count");
  CHECK_EQ(add->operands[0].kind, ASC_OK_LOCAL);
  CHECK_EQ(add->operands[1].kind, ASC_OK_LOCAL);
  CHECK_EQ(add->operands[3].kind, ASC_OK_INT);
  CHECK(add->operands[0].writes && !add->operands[0].reads);
  CHECK(add->operands[1].reads && !add->operands[1].writes);
  CHECK(add->operands[2].reads && !add->operands[2].writes);
  CHECK(!add->operands[3].reads && !add->operands[3].writes);
  CHECK(!add->operands[0].optional && !add->operands[3].optional);

  /* asc.tbuf.get: an optional length */
  const AscOpInfo *get = asc_op_info(ASC_OP_TBUF_GET);
  CHECK_STREQ(get->name, "asc.tbuf.get");
  CHECK_EQ(get->n_operands, 2);
  CHECK_EQ(get->n_required, 1);
  CHECK_EQ(get->operands[0].kind, ASC_OK_BUF);
  CHECK(!get->operands[0].optional);
  CHECK(get->operands[1].optional);
  CHECK_STREQ(get->operands[1].name, "length");
  CHECK_EQ(get->n_results, 1);
  CHECK_EQ(get->results[0], ASC_OK_LOCAL);
  CHECK_EQ(get->emit, ASC_EMIT_METHOD);

  /* func.call: variadic operands and results, a callee attribute */
  const AscOpInfo *call = asc_op_info(ASC_OP_CALL);
  CHECK_STREQ(call->name, "func.call");
  CHECK_EQ(call->variadic, 1);
  CHECK_EQ(call->n_operands, 0);
  CHECK_EQ(call->n_required, 0);
  CHECK_EQ(call->variadic_results, 1);
  CHECK_EQ(call->n_results, 0);
  CHECK_EQ(call->n_attrs, 1);
  CHECK_STREQ(call->attrs[0].name, "callee");
  CHECK_STREQ(call->attrs[0].kind, "str");
  CHECK_EQ(call->pipe, ASC_PIPE_NONE);

  /* scf.for: three fixed operands and a variadic tail */
  const AscOpInfo *fo = asc_op_info(ASC_OP_FOR);
  CHECK_EQ(fo->n_operands, 3);
  CHECK_EQ(fo->n_required, 3);
  CHECK_EQ(fo->variadic, 1);
  CHECK_STREQ(fo->operands[2].name, "step");

  /* set_flag: an enum attribute, pipe from the event */
  const AscOpInfo *sf = asc_op_info(ASC_OP_SET_FLAG);
  CHECK_EQ(sf->pipe, ASC_PIPE_EVENT);
  CHECK_EQ(sf->emit, ASC_EMIT_TEMPLATE);
  CHECK_EQ(sf->n_attrs, 1);
  CHECK_STREQ(sf->attrs[0].name, "event");
  CHECK_STREQ(sf->attrs[0].kind, "HardEvent");
  CHECK_EQ(sf->attrs[0].optional, 0);

  const AscOpInfo *cst = asc_op_info(ASC_OP_CONSTANT);
  CHECK_EQ(cst->n_operands, 0);
  CHECK_EQ(cst->n_results, 1);
  CHECK_EQ(cst->results[0], ASC_OK_NUM);
  CHECK_STREQ(cst->attrs[0].kind, "any");

  const AscOpInfo *cp = asc_op_info(ASC_OP_COPY_GM_TO_LOCAL);
  CHECK_EQ(cp->pipe, ASC_PIPE_MTE2);
  CHECK_EQ(cp->operands[1].kind, ASC_OK_GLOBAL);
  CHECK(cp->operands[1].reads);
  CHECK_EQ(asc_op_info(ASC_OP_COPY_LOCAL_TO_GM)->pipe, ASC_PIPE_MTE3);
  CHECK(asc_op_info(ASC_OP_GT_SET_VALUE)->operands[0].writes);
  CHECK_STREQ(asc_op_info(ASC_OP_CAST)->attrs[0].kind, "RoundMode");
  CHECK_STREQ(asc_op_info(ASC_OP_FUNC)->attrs[2].kind, "types");
}

/* ---- enums --------------------------------------------------------------- */

static void test_enums(void) {
  CHECK_EQ(ASC_HARDEVENT_MTE2_V, 4);
  CHECK_EQ(ASC_HARDEVENT_V_S, 22);
  CHECK_EQ(ASC_TPOSITION_VECIN, 9);
  CHECK_EQ(ASC_TPOSITION_VECCALC, 11);
  CHECK_EQ(ASC_PIPEID_PIPE_FIX, 10);
  CHECK_STREQ(asc_enum_kind_name(ASC_ENUM_HARDEVENT), "HardEvent");
  CHECK_STREQ(asc_enum_kind_name(ASC_ENUM_TPOSITION), "TPosition");
  CHECK_STREQ(asc_enum_kind_name(ASC_ENUM_KIND_COUNT), "?");
  int round_trip = 1;
  for (int k = 0; k < ASC_ENUM_KIND_COUNT; k++)
    if ((int)asc_enum_kind_from_name(asc_enum_kind_name((AscEnumKind)k)) != k)
      round_trip = 0;
  CHECK(round_trip);
  CHECK_EQ(asc_enum_kind_from_name("NoSuchEnum"), ASC_ENUM_KIND_COUNT);

  CHECK_STREQ(asc_enum_value_name(ASC_ENUM_HARDEVENT, 4), "MTE2_V");
  CHECK_STREQ(asc_enum_value_cpp(ASC_ENUM_HARDEVENT, 4), "MTE2_V");
  CHECK_STREQ(asc_enum_cpp_prefix(ASC_ENUM_HARDEVENT), "AscendC::HardEvent::");
  CHECK_STREQ(asc_enum_cpp_prefix(ASC_ENUM_PIPEID), "");
  CHECK_STREQ(asc_enum_value_name(ASC_ENUM_HARDEVENT, 34), "FIX_FIX");
  CHECK(asc_enum_value_name(ASC_ENUM_HARDEVENT, 35) == NULL);
  CHECK(asc_enum_value_name(ASC_ENUM_HARDEVENT, -1) == NULL);
  CHECK(asc_enum_value_cpp(ASC_ENUM_HARDEVENT, 99) == NULL);
  CHECK(asc_enum_value_name(ASC_ENUM_PIPEID, 7) == NULL); /* a gap */
  CHECK_STREQ(asc_enum_value_name(ASC_ENUM_PIPEID, 10), "PIPE_FIX");
  CHECK_STREQ(asc_enum_value_cpp(ASC_ENUM_CMPPRED, ASC_CMPPRED_LE), "<=");
  CHECK_STREQ(asc_enum_value_name(ASC_ENUM_ROUNDMODE, 1), "CAST_RINT");
  CHECK_STREQ(asc_enum_value_cpp(ASC_ENUM_TPOSITION, 10), "VECOUT");
  CHECK(asc_enum_value_name(ASC_ENUM_KIND_COUNT, 0) == NULL);
  CHECK(asc_enum_value_name((AscEnumKind)-1, 0) == NULL);
  CHECK_STREQ(asc_enum_cpp_prefix(ASC_ENUM_KIND_COUNT), "");

  int64_t v = -5;
  CHECK_EQ(asc_enum_value_from_name(ASC_ENUM_HARDEVENT, "V_S", &v), 0);
  CHECK_EQ(v, 22);
  CHECK_EQ(asc_enum_value_from_name(ASC_ENUM_TPOSITION, "VECOUT", &v), 0);
  CHECK_EQ(v, 10);
  v = -5;
  CHECK(asc_enum_value_from_name(ASC_ENUM_HARDEVENT, "NOPE", &v) != 0);
  CHECK_EQ(v, -5);
  CHECK(asc_enum_value_from_name(ASC_ENUM_KIND_COUNT, "V_S", &v) != 0);
  /* every value round-trips through its name */
  int values_ok = 1;
  for (int k = 0; k < ASC_ENUM_KIND_COUNT; k++)
    for (int64_t i = -2; i < 64; i++) {
      const char *n = asc_enum_value_name((AscEnumKind)k, i);
      if (!n)
        continue;
      int64_t back = -100;
      if (asc_enum_value_from_name((AscEnumKind)k, n, &back) || back != i ||
          !asc_enum_value_cpp((AscEnumKind)k, i))
        values_ok = 0;
    }
  CHECK(values_ok);
}

/* print -> parse -> print gives the same text, and the parsed module
 * verifies. */
static void check_round_trip(AscModule *m, const char *file, int line) {
  char *text = asc_module_print(m);
  AscContext *ctx = asc_context_new();
  AscModule *back =
      text ? asc_module_parse(ctx, text, "round_trip.mlir") : NULL;
  report(back != NULL, file, line, "parse failed: %s (line %d, col %d)",
         asc_context_message(ctx), asc_context_error_loc(ctx).line,
         asc_context_error_loc(ctx).col);
  if (back) {
    char *again = asc_module_print(back);
    report(again && strcmp(again, text) == 0, file, line,
           "round trip differs:\n%s\n---- vs ----\n%s", text,
           again ? again : "(null)");
    report(asc_module_verify(back) == ASC_OK, file, line,
           "parsed module does not verify: %s", asc_context_message(ctx));
    free(again);
  }
  asc_context_free(ctx);
  free(text);
}
#define CHECK_ROUND_TRIP(m) check_round_trip(m, __FILE__, __LINE__)

/* ---- building and verifying a kernel ------------------------------------- */

/* The kernel of the positive tests:
 *
 *   def k(x: GM f32, y: GM f32, n: int32):
 *     lt = LocalTensor(0, 64); data_copy(lt, x_gm, 64)
 *     set_flag/wait_flag(MTE2_V, 0); add(lt, lt, lt, 64)
 *     s = 0; for i in range(0, 8): s = s + i
 *     r = s if s < n else s * 8
 *     y_gm.set_value(0, r)
 */
static void build_good_kernel(B *b) {
  const AscType *args[3] = {b->ga_f32, b->ga_f32, b->i32};
  b_func(b, "k", 1, args, 3, NULL, 0, 1);
  AscBlock *body = b->cur;
  body->args[0].name = "x";
  body->args[1].name = "y";
  body->args[2].name = "n";
  AscValue *x = &body->args[0], *y = &body->args[1], *n = &body->args[2];
  AscValue *c0 = cst_i(b, 2, b->i32, 0);
  AscValue *c1 = cst_i(b, 2, b->i32, 1);
  AscValue *c8 = cst_i(b, 2, b->i32, 8);
  AscValue *c64 = cst_i(b, 2, b->i32, 64);
  AscValue *xg = emit(b, ASC_OP_GT_CREATE, 3, b->gt_f32, 0);
  xg->name = "x_gm";
  emit(b, ASC_OP_GT_SET_BUFFER, 3, NULL, 2, xg, x);
  AscValue *lt = emit(b, ASC_OP_LT_CREATE, 4, b->lt_f32, 2, c0, c64);
  emit(b, ASC_OP_COPY_GM_TO_LOCAL, 5, NULL, 3, lt, xg, c64);
  b_flag(b, ASC_OP_SET_FLAG, 6, ASC_HARDEVENT_MTE2_V, c0);
  b_flag(b, ASC_OP_WAIT_FLAG, 6, ASC_HARDEVENT_MTE2_V, c0);
  emit(b, ASC_OP_ADD, 7, NULL, 4, lt, lt, lt, c64);

  /* for loop with a loop-carried value */
  const AscType *for_args[2] = {b->i32, b->i32};
  const AscType *const *for_rt[1] = {for_args};
  int for_rn[1] = {2};
  AscValue *for_ops[4] = {c0, c8, c1, c0};
  AscOp *loop =
      b_region_op(b, ASC_OP_FOR, 8, for_ops, 4, &b->i32, 1, 1, for_rt, for_rn);
  AscBlock *saved = b->cur;
  b->cur = loop->regions[0].block;
  AscValue *t =
      emit(b, ASC_OP_ADD_S, 9, b->i32, 2, &b->cur->args[1], &b->cur->args[0]);
  emit(b, ASC_OP_YIELD, 9, NULL, 1, t);
  b->cur = saved;
  AscValue *s = &loop->results[0];
  s->name = "s";

  /* if with a result */
  AscAttr pred = attr_enum("predicate", ASC_ENUM_CMPPRED, ASC_CMPPRED_LT);
  AscValue *cmp_ops[2] = {s, n};
  AscValue *cond =
      &b_op(b, ASC_OP_CMP_S, 10, cmp_ops, 2, &b->i1, 1, &pred, 1)->results[0];
  AscOp *iff =
      b_region_op(b, ASC_OP_IF, 10, &cond, 1, &b->i32, 1, 2, NULL, NULL);
  b->cur = iff->regions[0].block;
  emit(b, ASC_OP_YIELD, 10, NULL, 1, s);
  b->cur = iff->regions[1].block;
  AscValue *mul = emit(b, ASC_OP_MUL_S, 11, b->i32, 2, s, c8);
  emit(b, ASC_OP_YIELD, 11, NULL, 1, mul);
  b->cur = saved;
  AscValue *yg = emit(b, ASC_OP_GT_CREATE, 12, b->gt_f32, 0);
  emit(b, ASC_OP_GT_SET_BUFFER, 12, NULL, 2, yg, y);
  emit(b, ASC_OP_GT_SET_VALUE, 13, NULL, 3, yg, c0, &iff->results[0]);
  b_return(b, 14, NULL, 0);
}

static void test_build_and_verify(void) {
  B b;
  b_init(&b, "good");
  build_good_kernel(&b);
  CHECK_EQ(asc_module_verify(b.m), ASC_OK);
  CHECK_EQ(asc_context_status(b.ctx), ASC_OK);
  CHECK_STREQ(asc_context_message(b.ctx), "");
  /* verifying twice gives the same answer (scratch state is restored) */
  CHECK_EQ(asc_module_verify(b.m), ASC_OK);

  AscOp *f = asc_module_find_function(b.m, "k");
  CHECK(f == b.func);
  CHECK(asc_module_find_function(b.m, "nope") == NULL);
  CHECK_STREQ(asc_op_attr_str(f, "sym_name"), "k");
  CHECK_EQ(asc_op_attr_int(f, "kernel", -1), 1);
  CHECK_EQ(asc_op_attr_int(f, "missing", -7), -7);
  CHECK(asc_op_attr_str(f, "kernel") == NULL);
  CHECK(asc_op_attr(f, "res_types") != NULL);
  CHECK_EQ(asc_op_attr(f, "res_types")->n_types, 0);
  CHECK_EQ(f->regions[0].block->n_args, 3);
  CHECK(f->regions[0].parent == f);
  CHECK(f->parent == b.m->body);
  /* block links */
  int n = 0;
  AscOp *prev = NULL, *last = NULL;
  int links_ok = 1;
  for (AscOp *op = f->regions[0].block->first; op; op = op->next) {
    if (op->prev != prev || op->parent != f->regions[0].block)
      links_ok = 0;
    prev = op;
    last = op;
    n++;
  }
  CHECK(links_ok);
  CHECK(last == f->regions[0].block->last);
  CHECK_EQ(last->id, ASC_OP_RETURN);
  CHECK(n > 10);
  /* the attribute strings were copied into the arena */
  const AscOp *flag = NULL;
  for (AscOp *op = f->regions[0].block->first; op; op = op->next)
    if (op->id == ASC_OP_SET_FLAG)
      flag = op;
  CHECK(flag != NULL);
  if (flag) {
    CHECK_EQ(asc_op_attr_int(flag, "event", -1), ASC_HARDEVENT_MTE2_V);
    CHECK_EQ(asc_op_attr(flag, "event")->kind, ASC_ATTR_ENUM);
    CHECK_STREQ(flag->loc.file, FILE_PY);
    CHECK(flag->loc.file != FILE_PY);
    CHECK_EQ(flag->loc.line, 6);
  }

  /* it compiles to bytecode, and compiling leaves the IR unchanged */
  char *before = asc_module_print(b.m);
  AscKernel *k = asc_kernel_compile(b.m, "k");
  CHECK(k != NULL);
  CHECK_EQ(asc_context_status(b.ctx), ASC_OK);
  if (k) {
    CHECK_EQ(asc_kernel_num_params(k), 3);
    CHECK(asc_kernel_param_type(k, 0) == b.ga_f32);
    CHECK(asc_kernel_param_type(k, 2) == b.i32);
    CHECK(asc_kernel_param_type(k, 3) == NULL);
    CHECK(asc_kernel_param_type(k, -1) == NULL);
  }
  asc_kernel_free(k);
  asc_kernel_free(NULL);
  char *after = asc_module_print(b.m);
  CHECK(before && after && strcmp(before, after) == 0);
  CHECK_EQ(asc_module_verify(b.m), ASC_OK);
  CHECK_ROUND_TRIP(b.m);
  free(before);
  free(after);
  b_free(&b);
}

/* Device functions, calls, results set after the body, scf.while, an
 * optional operand and the framework ops. */
static void test_build_functions(void) {
  B b;
  b_init(&b, "funcs");
  const AscType *two_i32[2] = {b.i32, b.i32};
  /* def f(a, b): return a + b, a * b  (results set afterwards) */
  AscOp *f = b_func(&b, "f", 1, two_i32, 2, NULL, 0, 0);
  AscBlock *fb = b.cur;
  AscValue *sum =
      emit(&b, ASC_OP_ADD_S, 2, b.i32, 2, &fb->args[0], &fb->args[1]);
  AscValue *prod =
      emit(&b, ASC_OP_MUL_S, 2, b.i32, 2, &fb->args[0], &fb->args[1]);
  AscValue *rets[2] = {sum, prod};
  b_return(&b, 3, rets, 2);
  asc_function_set_results(b.ctx, f, two_i32, 2);
  CHECK_EQ(asc_op_attr(f, "res_types")->n_types, 2);
  CHECK(asc_op_attr(f, "res_types")->types[1] == b.i32);

  const AscType *kargs[1] = {b.ga_f32};
  b_func(&b, "kern", 5, kargs, 1, NULL, 0, 1);
  AscValue *c0 = cst_i(&b, 6, b.i32, 0);
  AscValue *c3 = cst_i(&b, 6, b.i32, 3);
  AscValue *cargs[2] = {c3, c0};
  /* the front end learns call results late as well */
  AscOp *call = b_call(&b, 7, "f", cargs, 2, NULL, 0);
  asc_op_set_results(b.ctx, call, two_i32, 2);
  CHECK_EQ(call->n_results, 2);
  CHECK(call->results[1].def == call);
  CHECK_EQ(call->results[1].index, 1);
  CHECK_EQ(call->results[1].id, -1);

  /* while x < 10: x = x + 3 */
  const AscType *w_args[1] = {b.i32};
  const AscType *const *w_rt[2] = {w_args, w_args};
  int w_rn[2] = {1, 1};
  AscOp *w = b_region_op(&b, ASC_OP_WHILE, 8, (AscValue *[]){&call->results[0]},
                         1, &b.i32, 1, 2, w_rt, w_rn);
  AscBlock *saved = b.cur;
  b.cur = w->regions[0].block;
  AscValue *c10 = cst_i(&b, 8, b.i32, 10);
  AscAttr pred = attr_enum("predicate", ASC_ENUM_CMPPRED, ASC_CMPPRED_LT);
  AscValue *cmp_ops[2] = {&b.cur->args[0], c10};
  AscValue *cond =
      &b_op(&b, ASC_OP_CMP_S, 8, cmp_ops, 2, &b.i1, 1, &pred, 1)->results[0];
  emit(&b, ASC_OP_CONDITION, 8, NULL, 2, cond, &b.cur->args[0]);
  b.cur = w->regions[1].block;
  AscValue *nx = emit(&b, ASC_OP_ADD_S, 9, b.i32, 2, &b.cur->args[0], c3);
  emit(&b, ASC_OP_YIELD, 9, NULL, 1, nx);
  b.cur = saved;

  /* framework: pipe, queue, buffer, tbuf.get with and without length */
  AscValue *pipe = emit(&b, ASC_OP_TPIPE, 10, b.pipe, 0);
  AscValue *que = emit(&b, ASC_OP_TQUE, 10, b.que, 0);
  AscValue *buf = emit(&b, ASC_OP_TBUF, 10, b.buf, 0);
  AscValue *c512 = cst_i(&b, 10, b.i32, 512);
  AscValue *c2 = cst_i(&b, 10, b.i32, 2);
  emit(&b, ASC_OP_INIT_BUFFER_QUE, 11, NULL, 4, pipe, que, c2, c512);
  emit(&b, ASC_OP_INIT_BUFFER_BUF, 11, NULL, 3, pipe, buf, c512);
  const AscType *lt_calc = b.lt_i32;
  emit(&b, ASC_OP_TBUF_GET, 12, lt_calc, 1, buf);
  emit(&b, ASC_OP_TBUF_GET, 12, lt_calc, 2, buf, c2);
  AscValue *t = emit(&b, ASC_OP_ALLOC_TENSOR, 13, b.lt_f32, 1, que);
  emit(&b, ASC_OP_ENQUE, 13, NULL, 2, que, t);
  AscValue *d = emit(&b, ASC_OP_DEQUE, 13, b.lt_f32, 1, que);
  emit(&b, ASC_OP_FREE_TENSOR, 13, NULL, 2, que, d);
  AscAttr pipe_attr = attr_enum("pipe", ASC_ENUM_PIPEID, ASC_PIPEID_PIPE_V);
  b_op(&b, ASC_OP_PIPE_BARRIER, 14, NULL, 0, NULL, 0, &pipe_attr, 1);
  b_return(&b, 15, NULL, 0);

  CHECK_EQ(asc_module_verify(b.m), ASC_OK);
  if (asc_context_status(b.ctx))
    printf("  unexpected: %s (line %d)\n", asc_context_message(b.ctx),
           asc_context_error_loc(b.ctx).line);
  AscKernel *k = asc_kernel_compile(b.m, "kern");
  CHECK(k != NULL);
  asc_kernel_free(k);
  CHECK_ROUND_TRIP(b.m);
  b_free(&b);
}

/* Editing: unlinking ops and rewiring uses (what passes do). */
static void test_edit(void) {
  B b;
  b_init(&b, "edit");
  const AscType *args[1] = {b.i32};
  b_func(&b, "k", 1, args, 1, NULL, 0, 1);
  AscBlock *body = b.cur;
  AscValue *c1 = cst_i(&b, 2, b.i32, 1);
  AscValue *c2 = cst_i(&b, 3, b.i32, 2);
  AscValue *s = emit(&b, ASC_OP_ADD_S, 4, b.i32, 2, &body->args[0], c1);
  const AscType *ba[1] = {b.i32};
  const AscType *const *rt[1] = {ba};
  int rn[1] = {1};
  AscValue *ops[3] = {c1, s, c1};
  AscOp *loop = b_region_op(&b, ASC_OP_FOR, 5, ops, 3, NULL, 0, 1, rt, rn);
  b.cur = loop->regions[0].block;
  emit(&b, ASC_OP_MUL_S, 6, b.i32, 2, c1, c1);
  emit(&b, ASC_OP_YIELD, 6, NULL, 0);
  b.cur = body;
  b_return(&b, 7, NULL, 0);

  /* every use of c1, in the body and in the loop region, becomes c2 */
  CHECK_EQ(asc_replace_all_uses(body, c1, c2), 5);
  CHECK_EQ(asc_replace_all_uses(body, c1, c2), 0);
  CHECK(s->def->operands[1] == c2);
  CHECK(loop->operands[0] == c2 && loop->operands[2] == c2);
  CHECK(loop->regions[0].block->first->operands[0] == c2);
  CHECK_EQ(asc_module_verify(b.m), ASC_OK);

  /* remove the now unused constant (the first op), then the last */
  AscOp *first = c1->def;
  asc_block_remove(body, first);
  CHECK(body->first == c2->def);
  CHECK(c2->def->prev == NULL);
  CHECK(first->parent == NULL && first->next == NULL && first->prev == NULL);
  asc_block_remove(body, first); /* not in the block any more: no-op */
  CHECK(body->first == c2->def);
  AscOp *ret = body->last;
  asc_block_remove(body, ret);
  CHECK(body->last == loop);
  CHECK(loop->next == NULL);
  CHECK_EQ(asc_module_verify(b.m), ASC_ERR_COMPILE); /* no func.return */
  asc_context_clear_error(b.ctx);
  asc_block_append(body, ret);
  CHECK_EQ(asc_module_verify(b.m), ASC_OK);
  /* a middle op */
  asc_block_remove(body, s->def);
  CHECK(c2->def->next == loop && loop->prev == c2->def);
  CHECK_EQ(asc_module_verify(b.m), ASC_ERR_COMPILE); /* s is still used */
  CHECK_HAS(asc_context_message(b.ctx), "used before it is defined");
  CHECK_EQ(asc_context_error_loc(b.ctx).line, 5);
  b_free(&b);
}

/* ---- the printer --------------------------------------------------------- */

static void test_printer(void) {
  B b;
  b_init(&b, "tiny");
  AscContext *c = b.ctx;
  const AscType *args[2] = {b.ga_f32, b.i32};
  b_func(&b, "k", 1, args, 2, NULL, 0, 1);
  AscBlock *body = b.cur;
  body->args[0].name = "x";
  AscValue *two = cst_i(&b, 2, b.i32, 2);
  two->name = "c";
  AscValue *half = cst_f(&b, 3, b.f32, 0.5);
  half->name = "c"; /* a duplicate name gets a suffix */
  AscValue *prod = emit(&b, ASC_OP_MUL_S, 4, b.i32, 2, &body->args[1], two);
  (void)half;
  b_flag(&b, ASC_OP_SET_FLAG, 5, ASC_HARDEVENT_MTE2_V, prod);
  AscValue *g = emit(&b, ASC_OP_GT_CREATE, 6, b.gt_f32, 0);
  g->name = "x";
  emit(&b, ASC_OP_GT_SET_BUFFER, 6, NULL, 2, g, &body->args[0]);
  b_return(&b, 7, NULL, 0);
  CHECK_EQ(asc_module_verify(b.m), ASC_OK);

  const char *want =
      "module @tiny {\n"
      "  \"func.func\"() ({\n"
      "  ^bb0(%x: !asc.global_address<f32>, %arg0: i32):\n"
      "    %c = \"arith.constant\"() {value = 2 : i32} : () -> i32 "
      "loc(\"test.py\":2:5)\n"
      "    %c_1 = \"arith.constant\"() {value = 0.5 : f32} : () -> f32 "
      "loc(\"test.py\":3:5)\n"
      "    %1 = \"arith.mul\"(%arg0, %c) : (i32, i32) -> i32 "
      "loc(\"test.py\":4:5)\n"
      "    \"asc.set_flag\"(%1) {event = #asc<HardEvent MTE2_V>} : (i32) -> "
      "() loc(\"test.py\":5:5)\n"
      "    %x_1 = \"asc.global_tensor\"() : () -> !asc.global_tensor<f32> "
      "loc(\"test.py\":6:5)\n"
      "    \"asc.global_tensor.set_global_buffer\"(%x_1, %x) : "
      "(!asc.global_tensor<f32>, !asc.global_address<f32>) -> () "
      "loc(\"test.py\":6:5)\n"
      "    \"func.return\"() : () -> () loc(\"test.py\":7:5)\n"
      "  }) {sym_name = \"k\", kernel = 1 : i64, res_types = []} : () -> () "
      "loc(\"test.py\":1:5)\n"
      "}\n";
  char *text = asc_module_print(b.m);
  CHECK_STREQ(text, want);
  /* printing twice gives the same text; names do not leak between prints */
  char *again = asc_module_print(b.m);
  CHECK_STREQ(again, text);
  free(again);
  free(text);

  /* a device function with results, a call, an escaped file name */
  const AscType *fa[1] = {b.i32};
  AscOp *f = b_func(&b, "dev", 8, fa, 1, fa, 1, 0);
  f->loc.file = asc_strdup(c, "we\"ird.py");
  b.cur->args[0].name = "c"; /* names are per function: no suffix */
  b_return(&b, 9, (AscValue *[]){&b.cur->args[0]}, 1);
  b.cur = body;
  text = asc_module_print(b.m);
  CHECK_HAS(text, "^bb0(%c: i32):\n");
  CHECK_HAS(text, "\"func.return\"(%c) : (i32) -> () loc(\"test.py\":9:5)");
  CHECK_HAS(text, "{sym_name = \"dev\", kernel = 0 : i64, res_types = [i32]}");
  CHECK_HAS(text, "loc(\"we\\\"ird.py\":8:5)");
  free(text);
  CHECK_ROUND_TRIP(b.m);

  /* many values with one name stay distinct */
  B b2;
  b_init(&b2, "many");
  b_func(&b2, "k", 1, NULL, 0, NULL, 0, 1);
  for (int i = 0; i < 12; i++)
    cst_i(&b2, 2, b2.i32, i)->name = "v";
  b_return(&b2, 3, NULL, 0);
  text = asc_module_print(b2.m);
  CHECK_HAS(text, "%v = \"arith.constant\"() {value = 0 : i32}");
  CHECK_HAS(text, "%v_1 = \"arith.constant\"() {value = 1 : i32}");
  CHECK_HAS(text, "%v_11 = \"arith.constant\"() {value = 11 : i32}");
  free(text);
  b_free(&b2);
  b_free(&b);
}

/* ---- the user's structs -------------------------------------------------- */

static void test_user_structs(void) {
  B b;
  b_init(&b, "structs");
  AscContext *c = b.ctx;
  const AscType *u8 = asc_type_scalar(c, ASC_DT_UINT8);
  const AscType *f64 = asc_type_scalar(c, ASC_DT_FLOAT64);
  const char *tile_names[] = {"n", "len=tileLen"};
  const AscType *tile_types[] = {u8, b.f32};
  const AscStructInfo *tile =
      asc_module_add_struct(b.m, "Tile", tile_names, tile_types, 2, loc_at(1));
  CHECK(tile != NULL);
  CHECK_EQ(tile->id, ASC_STRUCT_USER);
  CHECK_EQ(tile->init, ASC_STRUCT_INIT_FIELDS);
  CHECK_STREQ(tile->fields[1].name, "len");
  CHECK_STREQ(tile->fields[1].cpp, "tileLen");
  CHECK_EQ(tile->n_slots, 2);
  /* a nested struct is laid out in place: slots a | n len | c */
  const AscType *tile_t = asc_type_struct(c, tile);
  const char *cfg_names[] = {"a", "tile", "c"};
  const AscType *cfg_types[] = {b.i64, tile_t, f64};
  const AscStructInfo *cfg =
      asc_module_add_struct(b.m, "Cfg", cfg_names, cfg_types, 3, loc_at(2));
  CHECK(cfg != NULL);
  CHECK_EQ(cfg->n_slots, 4);
  CHECK(cfg->fields[1].nested == tile);
  CHECK_EQ(cfg->fields[1].slot, 1);
  CHECK_EQ(cfg->fields[1].width, 2);
  CHECK_EQ(cfg->fields[2].slot, 3);
  CHECK_EQ(asc_struct_slot_dtype(cfg, 0), ASC_DT_INT64);
  CHECK_EQ(asc_struct_slot_dtype(cfg, 1), ASC_DT_UINT8);
  CHECK_EQ(asc_struct_slot_dtype(cfg, 2), ASC_DT_FLOAT32);
  CHECK_EQ(asc_struct_slot_dtype(cfg, 3), ASC_DT_FLOAT64);
  CHECK_EQ(asc_struct_slot_dtype(cfg, 4), ASC_DT_NONE);
  CHECK(asc_context_find_struct(c, "Cfg") == cfg);
  CHECK(asc_context_find_struct(c, "BinaryRepeatParams") ==
        asc_struct_info(ASC_STRUCT_BINARY_REPEAT_PARAMS));
  CHECK(asc_context_find_struct(c, "Nope") == NULL);
  /* the same definition again is the same struct, declared once */
  CHECK(asc_module_add_struct(b.m, "Tile", tile_names, tile_types, 2,
                              loc_at(3)) == tile);
  int defs = 0;
  for (AscOp *op = b.m->body->first; op; op = op->next)
    defs += op->id == ASC_OP_STRUCT_DEF;
  CHECK_EQ(defs, 2);
  CHECK_EQ(asc_module_verify(b.m), ASC_OK);

  /* refused: other fields under a taken name, a table name, bad names, no
   * fields, a non-number field */
  const AscType *other_types[] = {u8, u8};
  CHECK(asc_module_add_struct(b.m, "Tile", tile_names, other_types, 2,
                              loc_at(4)) == NULL);
  CHECK(strstr(asc_context_message(c), "defined twice with different fields"));
  asc_context_clear_error(c);
  CHECK(asc_module_add_struct(b.m, "UnaryRepeatParams", tile_names, tile_types,
                              2, loc_at(5)) == NULL);
  CHECK(strstr(asc_context_message(c), "the name of an Ascend C parameter"));
  asc_context_clear_error(c);
  const char *bad_names[] = {"x=", "y"};
  CHECK(asc_module_add_struct(b.m, "Bad", bad_names, tile_types, 2,
                              loc_at(6)) == NULL);
  CHECK(strstr(asc_context_message(c), "must be named by identifiers"));
  asc_context_clear_error(c);
  const char *dup_names[] = {"x", "x"};
  CHECK(asc_module_add_struct(b.m, "Dup", dup_names, tile_types, 2,
                              loc_at(7)) == NULL);
  CHECK(strstr(asc_context_message(c), "two fields named x"));
  asc_context_clear_error(c);
  CHECK(asc_module_add_struct(b.m, "Empty", NULL, NULL, 0, loc_at(8)) == NULL);
  asc_context_clear_error(c);
  const AscType *tensor_types[] = {b.lt_f32};
  CHECK(asc_module_add_struct(b.m, "T", tile_names, tensor_types, 1,
                              loc_at(9)) == NULL);
  asc_context_clear_error(c);
  CHECK(asc_module_add_struct(b.m, "9lives", tile_names, tile_types, 2,
                              loc_at(10)) == NULL);
  asc_context_clear_error(c);
  b_free(&b);
}

/* ---- array fields and template structs of the table --------------------- */

static void test_array_and_template_structs(void) {
  /* every row: slots and operands add up, one per element of an array; a
   * template has no values of its own, and a struct holding one is one */
  int layout_ok = 1, nesting_ok = 1;
  for (int i = 0; i < ASC_STRUCT_COUNT; i++) {
    const AscStructInfo *si = asc_struct_info((AscStructId)i);
    int slots = 0, operands = 0;
    for (int f = 0; f < si->n_fields; f++) {
      const AscFieldInfo *fi = &si->fields[f];
      if (fi->nested && fi->nested->is_template && !si->is_template)
        nesting_ok = 0;
      if (si->is_template)
        continue;
      if (fi->operand != operands || fi->slot != slots ||
          (fi->len > 0 && fi->width != fi->len))
        layout_ok = 0;
      slots += fi->width;
      operands += fi->len > 0 ? fi->len : 1;
    }
    if (!si->is_template &&
        (si->n_slots != slots || si->n_operands != operands))
      layout_ok = 0;
    if (si->is_template && (si->n_slots != 0 || si->targ != ASC_DT_NONE))
      layout_ok = 0;
  }
  CHECK(layout_ok);
  CHECK(nesting_ok);

  /* ShapeInfo: shapeDim | shape[8] | originalShapeDim | originalShape[8] |
   * dataFormat */
  const AscStructInfo *si = asc_struct_info(ASC_STRUCT_SHAPE_INFO);
  CHECK_EQ(si->n_fields, 5);
  CHECK_EQ(si->n_slots, 19);
  CHECK_EQ(si->n_operands, 19);
  CHECK_EQ(si->fields[1].len, 8);
  CHECK_EQ(si->fields[3].slot, 10);
  CHECK_EQ(asc_struct_slot_dtype(si, 0), ASC_DT_UINT8);
  CHECK_EQ(asc_struct_slot_dtype(si, 8), ASC_DT_UINT32);
  CHECK_EQ(asc_struct_slot_dtype(si, 9), ASC_DT_UINT8);
  CHECK_EQ(asc_struct_slot_dtype(si, 18), ASC_DT_INT32); /* the enum */
  int elem = -1;
  CHECK_EQ(asc_struct_operand_field(si, 3, &elem), 1);
  CHECK_EQ(elem, 2);
  CHECK_EQ(asc_struct_operand_field(si, 9, &elem), 2);
  CHECK_EQ(elem, 0);
  CHECK_EQ(asc_struct_operand_field(si, 18, &elem), 4);
  CHECK_EQ(asc_struct_operand_field(si, 19, &elem), -1);
  CHECK_EQ(asc_struct_operand_field(si, -1, &elem), -1);
  /* VdeqInfo: three arrays of 16 */
  const AscStructInfo *vdeq = asc_struct_info(ASC_STRUCT_VDEQ_INFO);
  CHECK_EQ(vdeq->n_slots, 48);
  CHECK_EQ(asc_struct_slot_dtype(vdeq, 15), ASC_DT_FLOAT32);
  CHECK_EQ(asc_struct_slot_dtype(vdeq, 16), ASC_DT_INT16);
  CHECK_EQ(asc_struct_slot_dtype(vdeq, 47), ASC_DT_BOOL);

  /* templates: an instance per T, made once, found by its name too */
  const AscStructInfo *pad =
      asc_struct_info(ASC_STRUCT_DATA_COPY_PAD_EXT_PARAMS);
  CHECK(pad->is_template);
  CHECK_EQ(pad->tdefault, ASC_DT_FLOAT16);
  const AscStructInfo *pad16 = asc_struct_instance(pad, ASC_DT_FLOAT16);
  CHECK(pad16 != NULL && pad16 == asc_struct_instance(pad, ASC_DT_FLOAT16));
  CHECK(pad16 != asc_struct_instance(pad, ASC_DT_INT32));
  CHECK_STREQ(pad16->name, "DataCopyPadExtParams<f16>");
  CHECK_STREQ(pad16->cpp, "AscendC::DataCopyPadExtParams<half>");
  CHECK_EQ(pad16->id, ASC_STRUCT_DATA_COPY_PAD_EXT_PARAMS);
  CHECK(pad16->tmpl == pad && !pad16->is_template);
  CHECK_EQ(pad16->targ, ASC_DT_FLOAT16);
  CHECK_EQ(pad16->fields[3].dtype, ASC_DT_FLOAT16);
  CHECK_EQ(pad16->fields[0].dtype, ASC_DT_BOOL);
  CHECK_EQ(pad16->n_slots, 4);
  CHECK(asc_struct_instance(pad, ASC_DT_BOOL) == NULL);
  CHECK(asc_struct_instance(pad, ASC_DT_INDEX) == NULL);
  CHECK(asc_struct_instance(pad, ASC_DT_NONE) == NULL);
  CHECK(asc_struct_instance(si, ASC_DT_FLOAT16) == NULL); /* no template */
  CHECK(asc_struct_instance(NULL, ASC_DT_FLOAT16) == NULL);
  const AscStructInfo *aipp = asc_struct_info(ASC_STRUCT_AIPP_PARAMS);
  CHECK(asc_struct_instance(aipp, ASC_DT_FLOAT32) == NULL); /* i8, f16 only */
  const AscStructInfo *aipp8 = asc_struct_instance(aipp, ASC_DT_INT8);
  CHECK(aipp8 != NULL);
  CHECK(aipp8->fields[0].nested ==
        asc_struct_instance(asc_struct_info(ASC_STRUCT_AIPP_PADDING_PARAMS),
                            ASC_DT_INT8));
  CHECK(aipp8->fields[1].nested ==
        asc_struct_info(ASC_STRUCT_AIPP_SWAP_PARAMS));
  CHECK_EQ(aipp8->n_slots, 5 + 3 + 1 + 10 + 2 + 16);
  CHECK_EQ(asc_struct_slot_dtype(aipp8, 1), ASC_DT_INT8);

  B b;
  b_init(&b, "arrays");
  AscContext *c = b.ctx;
  CHECK(asc_context_find_struct(c, "DataCopyPadExtParams<f16>") == pad16);
  CHECK(asc_context_find_struct(c, "DataCopyPadExtParams<float16>") == pad16);
  CHECK(asc_context_find_struct(c, "DataCopyPadExtParams<nope>") == NULL);
  CHECK(asc_context_find_struct(c, "ShapeInfo<f16>") == NULL);
  CHECK(asc_context_find_struct(c, "DataCopyPadExtParams<f16") == NULL);
  CHECK(asc_type_struct(c, pad) == NULL); /* a template is no type */
  const AscType *pad16_t = asc_type_struct(c, pad16);
  CHECK(pad16_t != NULL && pad16_t->dtype == ASC_DT_FLOAT16);
  char buf[96];
  asc_type_format(pad16_t, buf, sizeof buf);
  CHECK_STREQ(buf, "!asc.struct<DataCopyPadExtParams<f16>>");
  /* a tensor value carries its shape info: handle, stamp, ShapeInfo */
  CHECK_EQ(asc_slot_width(b.lt_f32), 2 + si->n_slots);
  CHECK_EQ(asc_slot_width(b.gt_f32), 2 + si->n_slots);
  CHECK_EQ(asc_slot_width(pad16_t), 4);

  /* asc.struct of ShapeInfo: 19 operands; elements by index */
  const AscType *shape_t = asc_type_struct(c, si);
  const AscType *ui32 = asc_type_scalar(c, ASC_DT_UINT32);
  const AscType *args[] = {b.i32};
  b_func(&b, "k", 1, args, 1, NULL, 0, 1);
  AscValue *n = &b.func->regions[0].block->args[0];
  AscValue *one = cst_i(&b, 2, b.i32, 1);
  AscValue *ops[19];
  for (int i = 0; i < 19; i++)
    ops[i] = one;
  AscOp *mk = b_op(&b, ASC_OP_STRUCT, 3, ops, 19, &shape_t, 1, NULL, 0);
  AscValue *s = &mk->results[0];
  AscAttr field = attr_str("field", "shape");
  AscValue *get_ops[] = {s, n};
  b_op(&b, ASC_OP_STRUCT_GET, 4, get_ops, 2, &ui32, 1, &field, 1);
  AscValue *set_ops[] = {s, one, n};
  b_op(&b, ASC_OP_STRUCT_SET, 5, set_ops, 3, &shape_t, 1, &field, 1);
  b_return(&b, 6, NULL, 0);
  CHECK_EQ(asc_module_verify(b.m), ASC_OK);
  CHECK_ROUND_TRIP(b.m);
  /* one operand short: the verifier says how many it takes */
  mk->n_operands = 18;
  CHECK_EQ(asc_module_verify(b.m), ASC_ERR_COMPILE);
  CHECK(strstr(asc_context_message(c), "ShapeInfo takes 19 values"));
  asc_context_clear_error(c);
  mk->n_operands = 19;
  b_free(&b);
  /* an element read without its index */
  b_init(&b, "no_index");
  b_func(&b, "k", 1, NULL, 0, NULL, 0, 1);
  one = cst_i(&b, 2, b.i32, 1);
  shape_t = asc_type_struct(b.ctx, si);
  ui32 = asc_type_scalar(b.ctx, ASC_DT_UINT32);
  for (int i = 0; i < 19; i++)
    ops[i] = one;
  s = &b_op(&b, ASC_OP_STRUCT, 3, ops, 19, &shape_t, 1, NULL, 0)->results[0];
  b_op(&b, ASC_OP_STRUCT_GET, 4, &s, 1, &ui32, 1, &field, 1);
  b_return(&b, 5, NULL, 0);
  CHECK_EQ(asc_module_verify(b.m), ASC_ERR_COMPILE);
  CHECK(strstr(asc_context_message(b.ctx),
               "is an array of 8: give the element's index"));
  b_free(&b);
}

int main(void) {
  setvbuf(stdout, NULL, _IOLBF, 0); /* keep output if a test crashes */
  test_arena();
  test_types();
  test_dtypes();
  test_op_table();
  test_enums();
  test_build_and_verify();
  test_build_functions();
  test_edit();
  test_printer();
  test_user_structs();
  test_array_and_template_structs();
  printf("test_ir: %d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
