/* The format strings of AscendC::printf (family: debug): the conversions
 * the devkit documents, parsed once for the verifier (src/ir/verifier.c)
 * and the simulator (src/sim/debug_print.c). */
#ifndef ASC_IR_PRINTF_FORMAT_H
#define ASC_IR_PRINTF_FORMAT_H

#include <stddef.h>

#include "asc/ir.h"

enum { ASC_PRINTF_MAX_CONVS = 64 };

/* One conversion: fmt[at, at + len) from its '%', its conversion letter
 * (d i u x X f F s p, or '%' for a literal percent sign, which takes no
 * argument) and its length modifier (0, 1: l, 2: ll). */
typedef struct AscPrintfConv {
  size_t at, len;
  char conv;
  int length;
} AscPrintfConv;

/* Parses fmt into at most ASC_PRINTF_MAX_CONVS conversions; returns their
 * number, or -1 with a message in err for a format the devkit does not
 * print: an unknown or incomplete conversion, or an escape character other
 * than a newline. */
int asc_printf_parse(const char *fmt, AscPrintfConv *convs, char *err,
                     size_t err_size);

/* The verifier's check of an asc.printf op: its format parses and each
 * conversion that takes an argument has one of a type it prints (d i u x X:
 * integers and bools; f F: floats; p: integers and GM addresses; s: none,
 * the front end puts compile-time strings into the format). */
AscStatus asc_printf_verify(AscContext *ctx, const AscOp *op);

#endif
