/* The hardware pipes as the enums name them: a HardEvent is SRC_DST after
 * its two pipes (MTE2_V), a PipeID names one pipe or PIPE_ALL. The
 * simulator's sync model and the sync-insertion pass both read these. */
#include <stdio.h>
#include <string.h>

#include "asc/ir.h"
#include "asc/ops.h"

static const struct {
  const char *name;
  AscPipe pipe;
  int64_t pipeid;
} pipes[] = {
    {"S", ASC_PIPE_S, ASC_PIPEID_PIPE_S},
    {"V", ASC_PIPE_V, ASC_PIPEID_PIPE_V},
    {"M", ASC_PIPE_M, ASC_PIPEID_PIPE_M},
    {"MTE1", ASC_PIPE_MTE1, ASC_PIPEID_PIPE_MTE1},
    {"MTE2", ASC_PIPE_MTE2, ASC_PIPEID_PIPE_MTE2},
    {"MTE3", ASC_PIPE_MTE3, ASC_PIPEID_PIPE_MTE3},
    {"FIX", ASC_PIPE_FIX, ASC_PIPEID_PIPE_FIX},
};
enum { N_PIPES = sizeof pipes / sizeof pipes[0] };

const char *asc_pipe_name(AscPipe p) {
  for (int i = 0; i < N_PIPES; i++)
    if (pipes[i].pipe == p)
      return pipes[i].name;
  return "?";
}

static AscPipe pipe_named(const char *s, size_t n) {
  for (int i = 0; i < N_PIPES; i++)
    if (strlen(pipes[i].name) == n && strncmp(pipes[i].name, s, n) == 0)
      return pipes[i].pipe;
  return ASC_PIPE_S;
}

void asc_event_pipes(int64_t hard_event, AscPipe *src, AscPipe *dst) {
  const char *name = asc_enum_value_name(ASC_ENUM_HARDEVENT, hard_event);
  const char *us = name ? strchr(name, '_') : NULL;
  if (!us) {
    *src = *dst = ASC_PIPE_S;
    return;
  }
  *src = pipe_named(name, (size_t)(us - name));
  *dst = pipe_named(us + 1, strlen(us + 1));
}

int64_t asc_event_of_pipes(AscPipe src, AscPipe dst) {
  char name[32];
  int64_t v;
  snprintf(name, sizeof name, "%s_%s", asc_pipe_name(src), asc_pipe_name(dst));
  return asc_enum_value_from_name(ASC_ENUM_HARDEVENT, name, &v) == 0 ? v : -1;
}

AscPipe asc_pipe_of_pipeid(int64_t pipeid) {
  for (int i = 0; i < N_PIPES; i++)
    if (pipes[i].pipeid == pipeid)
      return pipes[i].pipe;
  return ASC_PIPE_COUNT;
}

int64_t asc_pipeid_of_pipe(AscPipe p) {
  for (int i = 0; i < N_PIPES; i++)
    if (pipes[i].pipe == p)
      return pipes[i].pipeid;
  return ASC_PIPEID_PIPE_ALL;
}
