/* Helpers shared by the command-line tools (see tool_util.h). */
#include "tool_util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *tool_read_input(const char *tool, const char *path, const char *display) {
  int is_stdin = strcmp(path, "-") == 0;
  FILE *f = is_stdin ? stdin : fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "%s: error: cannot open '%s': %s\n", tool, path,
            strerror(errno));
    return NULL;
  }
  size_t len = 0, cap = 1 << 16;
  char *buf = malloc(cap);
  while (buf) {
    if (len + 1 >= cap) {
      char *nb = realloc(buf, cap * 2);
      if (!nb) {
        free(buf);
        buf = NULL;
        break;
      }
      buf = nb;
      cap *= 2;
    }
    size_t n = fread(buf + len, 1, cap - len - 1, f);
    len += n;
    if (n == 0)
      break;
  }
  int err = ferror(f);
  if (!is_stdin)
    fclose(f);
  if (!buf) {
    fprintf(stderr, "%s: error: out of memory reading '%s'\n", tool, display);
    return NULL;
  }
  if (err) {
    fprintf(stderr, "%s: error: cannot read '%s'\n", tool, display);
    free(buf);
    return NULL;
  }
  buf[len] = 0;
  const char *nul = memchr(buf, 0, len);
  if (nul) {
    int line = 1, col = 1;
    for (const char *s = buf; s < nul; s++, col++)
      if (*s == '\n') {
        line++;
        col = 0;
      }
    fprintf(stderr, "%s:%d:%d: error: unexpected NUL byte\n", display, line,
            col);
    free(buf);
    return NULL;
  }
  return buf;
}

/* Prints line `line` of text and a caret under column col. */
static void show_line(const char *text, int line, int col) {
  const char *s = text;
  for (int l = 1; l < line && s; l++) {
    s = strchr(s, '\n');
    if (s)
      s++;
  }
  if (!s || !*s)
    return;
  const char *e = strchr(s, '\n');
  int n = e ? (int)(e - s) : (int)strlen(s);
  if (n > 0 && s[n - 1] == '\r')
    n--;
  fprintf(stderr, "%.*s\n", n, s);
  if (col >= 1 && col <= n + 1) {
    for (int i = 1; i < col; i++)
      fputc(s[i - 1] == '\t' ? '\t' : ' ', stderr);
    fputs("^\n", stderr);
  }
}

void tool_report(const char *tool, AscContext *ctx, const char *display,
                 const char *text) {
  AscLoc l = asc_context_error_loc(ctx);
  const char *msg = asc_context_message(ctx);
  if (!msg || !*msg)
    msg = "unknown error";
  if (l.file && l.line > 0)
    fprintf(stderr, "%s:%d:%d: error: %s\n", l.file, l.line, l.col, msg);
  else
    fprintf(stderr, "%s: error: %s\n", l.file ? l.file : display, msg);
  if (text && l.file && l.line > 0 && strcmp(l.file, display) == 0)
    show_line(text, l.line, l.col);
  (void)tool;
}

int tool_write_output(const char *tool, const char *path, const char *s) {
  int is_stdout = !path || strcmp(path, "-") == 0;
  FILE *f = is_stdout ? stdout : fopen(path, "wb");
  if (!f) {
    fprintf(stderr, "%s: error: cannot open '%s' for writing: %s\n", tool, path,
            strerror(errno));
    return -1;
  }
  size_t n = strlen(s);
  int bad = fwrite(s, 1, n, f) != n;
  bad |= is_stdout ? fflush(f) != 0 : fclose(f) != 0;
  if (bad) {
    fprintf(stderr, "%s: error: cannot write '%s'\n", tool,
            is_stdout ? "<stdout>" : path);
    return -1;
  }
  return 0;
}

int tool_usage_error(const char *tool, const char *fmt, const char *arg) {
  fprintf(stderr, "%s: error: ", tool);
  fprintf(stderr, fmt, arg);
  fprintf(stderr, "\n(run '%s --help' for usage)\n", tool);
  return 2;
}
