/* asc-translate: turns ASC-IR text into Ascend C.
 *
 *   asc-translate FILE.ascir --to-ascendc [-o OUT] [--no-line-comments]
 *                 [--no-dump]
 *
 * FILE may be `-` (stdin; also the default). The module is parsed and
 * verified first; errors are printed as `file:line:col: error: message`.
 * Exit status: 0 on success, 1 for bad input, 2 for bad usage. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asc/emit.h"
#include "asc/passes.h"
#include "tool_util.h"

static const char *const TOOL = "asc-translate";

static void usage(FILE *f) {
  fprintf(
      f, "usage: asc-translate [FILE.ascir | -] --to-ascendc [-o OUT] "
         "[--no-line-comments] [--no-dump]\n"
         "\n"
         "Parses and verifies ASC-IR text and translates it.\n"
         "\n"
         "  FILE | -             input file; `-` or nothing reads stdin\n"
         "  --to-ascendc         emit an Ascend C translation unit\n"
         "  -o OUT               write the output to OUT instead of stdout\n"
         "  --no-line-comments   leave out the `// file.py:LINE` comments\n"
         "  --no-dump            a kernel that prints from the device gets no\n"
         "                       dump buffer parameter nor InitDump (the\n"
         "                       ASCENDC_DUMP=false build)\n"
         "  -h, --help           print this help and exit\n");
}

int main(int argc, char **argv) {
  const char *input = NULL, *output = NULL;
  int to_ascendc = 0, line_comments = 1, no_dump = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      usage(stdout);
      return 0;
    }
    if (strcmp(a, "--to-ascendc") == 0) {
      to_ascendc = 1;
    } else if (strcmp(a, "--no-line-comments") == 0) {
      line_comments = 0;
    } else if (strcmp(a, "--no-dump") == 0) {
      no_dump = 1;
    } else if (strcmp(a, "-o") == 0) {
      if (i + 1 >= argc)
        return tool_usage_error(TOOL, "%s needs a file name", a);
      output = argv[++i];
    } else if (a[0] == '-' && a[1] != 0) {
      return tool_usage_error(TOOL, "unknown option '%s'", a);
    } else if (input) {
      return tool_usage_error(TOOL, "more than one input file ('%s')", a);
    } else {
      input = a;
    }
  }
  if (!to_ascendc)
    return tool_usage_error(TOOL, "%s",
                            "no translation chosen: pass --to-ascendc");
  if (!input)
    input = "-";
  const char *display = strcmp(input, "-") == 0 ? "<stdin>" : input;
  char *text = tool_read_input(TOOL, input, display);
  if (!text)
    return 1;
  AscContext *ctx = asc_context_new();
  if (!ctx) {
    fprintf(stderr, "%s: error: out of memory\n", TOOL);
    free(text);
    return 1;
  }
  int rc = 1;
  AscModule *m = asc_module_parse(ctx, text, display);
  if (!m || asc_module_verify(m) != ASC_OK) {
    tool_report(TOOL, ctx, display, text);
    goto done;
  }
  AscEmitOptions options;
  memset(&options, 0, sizeof options);
  options.line_comments = line_comments;
  options.no_dump = no_dump;
  char *out = asc_emit_ascendc(m, &options);
  if (!out) {
    tool_report(TOOL, ctx, display, NULL);
    goto done;
  }
  rc = tool_write_output(TOOL, output, out) ? 1 : 0;
  free(out);
done:
  asc_context_free(ctx);
  free(text);
  return rc;
}
