/* asc-opt: parses ASC-IR text, verifies it, runs named passes, prints it.
 *
 *   asc-opt FILE.ascir [--pass NAME ...] [--verify-only] [-o OUT]
 *
 * FILE may be `-` (stdin; also the default). Errors are printed as
 * `file:line:col: error: message`; the exit status is 0 on success, 1 for
 * bad input and 2 for bad command-line usage. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asc/passes.h"
#include "tool_util.h"

static const char *const TOOL = "asc-opt";

static void usage(FILE *f) {
  fprintf(f,
          "usage: asc-opt [FILE.ascir | -] [--pass NAME ...] [--verify-only] "
          "[-o OUT]\n"
          "\n"
          "Parses ASC-IR text (MLIR generic op syntax), verifies it, runs the\n"
          "named passes in order, verifies the result and prints it.\n"
          "\n"
          "  FILE | -         input file; `-` or nothing reads stdin\n"
          "  --pass NAME      run pass NAME (repeatable; also --pass=NAME)\n"
          "  --verify-only    verify, print nothing; exit 0 when valid\n"
          "  -o OUT           write the output to OUT instead of stdout\n"
          "  --list-passes    print the available passes and exit\n"
          "  -h, --help       print this help and exit\n"
          "\n"
          "passes:");
  for (const char *const *n = asc_pass_names(); *n; n++)
    fprintf(f, " %s", *n);
  fprintf(f, "\n");
}

/* NAME or NAME{options} */
/* name or name{options} (the pass checks its options) */
static int known_pass(const char *name) {
  const char *brace = strchr(name, '{');
  size_t len = brace ? (size_t)(brace - name) : strlen(name);
  for (const char *const *n = asc_pass_names(); *n; n++)
    if (strlen(*n) == len && strncmp(*n, name, len) == 0)
      return 1;
  return 0;
}

int main(int argc, char **argv) {
  const char *input = NULL, *output = NULL;
  int verify_only = 0;
  const char **passes = calloc((size_t)argc + 1, sizeof *passes);
  int n_passes = 0;
  if (!passes) {
    fprintf(stderr, "%s: error: out of memory\n", TOOL);
    return 1;
  }
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      usage(stdout);
      free(passes);
      return 0;
    }
    if (strcmp(a, "--list-passes") == 0) {
      for (const char *const *n = asc_pass_names(); *n; n++)
        printf("%s\n", *n);
      free(passes);
      return 0;
    }
    const char *pass = NULL;
    if (strcmp(a, "--pass") == 0 || strcmp(a, "-p") == 0) {
      if (i + 1 >= argc) {
        free(passes);
        return tool_usage_error(TOOL, "%s needs a pass name", a);
      }
      pass = argv[++i];
    } else if (strncmp(a, "--pass=", 7) == 0) {
      pass = a + 7;
    }
    if (pass) {
      if (!known_pass(pass)) {
        free(passes);
        return tool_usage_error(TOOL, "unknown pass '%s' (see --list-passes)",
                                pass);
      }
      passes[n_passes++] = pass;
      continue;
    }
    if (strcmp(a, "--verify-only") == 0) {
      verify_only = 1;
    } else if (strcmp(a, "-o") == 0) {
      if (i + 1 >= argc) {
        free(passes);
        return tool_usage_error(TOOL, "%s needs a file name", a);
      }
      output = argv[++i];
    } else if (a[0] == '-' && a[1] != 0) {
      free(passes);
      return tool_usage_error(TOOL, "unknown option '%s'", a);
    } else if (input) {
      free(passes);
      return tool_usage_error(TOOL, "more than one input file ('%s')", a);
    } else {
      input = a;
    }
  }
  if (!input)
    input = "-";
  const char *display = strcmp(input, "-") == 0 ? "<stdin>" : input;
  char *text = tool_read_input(TOOL, input, display);
  if (!text) {
    free(passes);
    return 1;
  }
  AscContext *ctx = asc_context_new();
  if (!ctx) {
    fprintf(stderr, "%s: error: out of memory\n", TOOL);
    free(text);
    free(passes);
    return 1;
  }
  int rc = 1;
  AscModule *m = asc_module_parse(ctx, text, display);
  if (!m || asc_module_verify(m) != ASC_OK) {
    tool_report(TOOL, ctx, display, text);
    goto done;
  }
  for (int i = 0; i < n_passes; i++) {
    if (asc_run_pass(m, passes[i]) != ASC_OK) {
      tool_report(TOOL, ctx, display, NULL);
      goto done;
    }
    if (asc_module_verify(m) != ASC_OK) {
      fprintf(stderr, "%s: error: the IR is invalid after pass '%s':\n", TOOL,
              passes[i]);
      tool_report(TOOL, ctx, display, NULL);
      goto done;
    }
  }
  /* family ubplan: what the passes reported (the UB plan), on stderr so that
   * stdout stays IR */
  if (*asc_module_log_text(m))
    fputs(asc_module_log_text(m), stderr);
  if (verify_only) {
    rc = 0;
    goto done;
  }
  char *out = asc_module_print(m);
  if (!out) {
    fprintf(stderr, "%s: error: out of memory printing the module\n", TOOL);
    goto done;
  }
  rc = tool_write_output(TOOL, output, out) ? 1 : 0;
  free(out);
done:
  asc_context_free(ctx);
  free(text);
  free(passes);
  return rc;
}
