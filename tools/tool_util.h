/* Helpers shared by the command-line tools asc-opt and asc-translate. */
#ifndef ASC_TOOL_UTIL_H
#define ASC_TOOL_UTIL_H

#include <stddef.h>

#include "asc/ir.h"

/* Reads a whole file ("-" is stdin) into a malloc'ed NUL-terminated
 * buffer. On failure prints "TOOL: error: ..." and returns NULL. A NUL
 * byte inside the text is an error too (the parser reads C strings). */
char *tool_read_input(const char *tool, const char *path, const char *display);

/* Prints the error recorded on ctx as `file:line:col: error: message`,
 * followed by the offending line and a caret when the location is in
 * `text` (the input named `display`). */
void tool_report(const char *tool, AscContext *ctx, const char *display,
                 const char *text);

/* Writes s to path ("-" or NULL: stdout); prints an error and returns -1 on
 * failure. */
int tool_write_output(const char *tool, const char *path, const char *s);

/* Prints "TOOL: error: " + fmt (with arg) and a pointer to --help; returns
 * 2, the exit status for bad usage. */
int tool_usage_error(const char *tool, const char *fmt, const char *arg);

#endif
