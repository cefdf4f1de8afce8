/* printf format strings (family: debug): see printf_format.h. The devkit
 * lists %d %i %u %x %f %F %s %p (with l and ll on the integer ones); the
 * flags, width and precision of C's printf are accepted too, since the
 * runtime formats each record with the C library. */
#include "printf_format.h"

#include <stdio.h>
#include <string.h>

#include "asc/dtype.h"
#include "asc/ops.h"

int asc_printf_parse(const char *fmt, AscPrintfConv *convs, char *err,
                     size_t err_size) {
  int n = 0;
  for (size_t i = 0; fmt[i]; i++) {
    unsigned char c = (unsigned char)fmt[i];
    if (c < 0x20 && c != '\n') {
      snprintf(err, err_size,
               "the format holds the control character 0x%02x: printf "
               "prints no escape character but a newline",
               c);
      return -1;
    }
    if (c != '%')
      continue;
    size_t at = i++;
    while (fmt[i] && strchr("-+ #0", fmt[i]))
      i++;
    while (fmt[i] >= '0' && fmt[i] <= '9')
      i++;
    if (fmt[i] == '.') {
      i++;
      while (fmt[i] >= '0' && fmt[i] <= '9')
        i++;
    }
    int length = 0;
    while (fmt[i] == 'l' && length < 2) {
      length++;
      i++;
    }
    char conv = fmt[i];
    const char *ok = length ? "dixu" : "diuxXfFsp%";
    if (!conv || !strchr(ok, conv) || (conv == '%' && i != at + 1)) {
      size_t shown = conv ? i - at + 1 : i - at;
      snprintf(err, err_size,
               "unsupported conversion \"%.*s\" in the format (printf "
               "prints %%d %%i %%u %%x %%ld %%lld %%lx %%llx %%lu %%llu %%f "
               "%%F %%s %%p and %%%%)",
               (int)(shown > 20 ? 20 : shown), fmt + at);
      return -1;
    }
    if (n == ASC_PRINTF_MAX_CONVS) {
      snprintf(err, err_size, "the format has more than %d conversions",
               ASC_PRINTF_MAX_CONVS);
      return -1;
    }
    convs[n].at = at;
    convs[n].len = i - at + 1;
    convs[n].conv = conv;
    convs[n].length = length;
    n++;
  }
  return n;
}

static int prints(char conv, const AscType *t) {
  if (t->kind == ASC_TY_GLOBAL_ADDRESS)
    return conv == 'p';
  if (t->kind != ASC_TY_SCALAR)
    return 0;
  int is_int = asc_dtype_is_int(t->dtype) || t->dtype == ASC_DT_BOOL ||
               t->dtype == ASC_DT_INDEX;
  if (strchr("diuxXp", conv))
    return is_int;
  return asc_dtype_is_float(t->dtype);
}

AscStatus asc_printf_verify(AscContext *ctx, const AscOp *op) {
  const char *fmt = asc_op_attr_str(op, "format");
  AscPrintfConv convs[ASC_PRINTF_MAX_CONVS];
  char err[256];
  if (!fmt)
    return asc_error(ctx, ASC_ERR_COMPILE, op->loc,
                     "asc.printf: no format attribute");
  int n = asc_printf_parse(fmt, convs, err, sizeof err);
  if (n < 0)
    return asc_error(ctx, ASC_ERR_COMPILE, op->loc, "asc.printf: %s", err);
  int k = 0;
  for (int i = 0; i < n; i++) {
    if (convs[i].conv == '%')
      continue;
    if (convs[i].conv == 's')
      return asc_error(ctx, ASC_ERR_COMPILE, op->loc,
                       "asc.printf: %%s takes a compile-time string (a "
                       "Python str argument), not a runtime value");
    if (k >= op->n_operands)
      return asc_error(ctx, ASC_ERR_COMPILE, op->loc,
                       "asc.printf: the format has more conversions than "
                       "the %d argument(s) given",
                       op->n_operands);
    const AscType *t = op->operands[k]->type;
    if (!prints(convs[i].conv, t))
      return asc_error(
          ctx, ASC_ERR_COMPILE, op->loc,
          "asc.printf: argument %d (%s) does not match the conversion "
          "\"%.*s\" (%%d %%i %%u %%x take integers, %%f a float, %%p an "
          "integer or a GM address)",
          k + 1,
          t->kind == ASC_TY_SCALAR ? asc_dtype_name(t->dtype) : "not a number",
          (int)convs[i].len, fmt + convs[i].at);
    k++;
  }
  if (k != op->n_operands)
    return asc_error(ctx, ASC_ERR_COMPILE, op->loc,
                     "asc.printf: %d argument(s) given for the %d "
                     "conversion(s) of the format",
                     op->n_operands, k);
  return ASC_OK;
}
