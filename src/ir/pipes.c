/* The hardware pipes as the enums name them: a HardEvent is SRC_DST after
 * its two pipes (MTE2_V), a PipeID names one pipe or PIPE_ALL. The
 * simulator's sync model and the sync-insertion pass both read these. */
#include <pthread.h>
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

static void event_pipes_named(int64_t hard_event, AscPipe *src, AscPipe *dst) {
  const char *name = asc_enum_value_name(ASC_ENUM_HARDEVENT, hard_event);
  const char *us = name ? strchr(name, '_') : NULL;
  if (!us) {
    *src = *dst = ASC_PIPE_S;
    return;
  }
  *src = pipe_named(name, (size_t)(us - name));
  *dst = pipe_named(us + 1, strlen(us + 1));
}

/* The pipes of the HardEvent values below EVENT_TABLE, derived from their
 * names once: every set_flag / wait_flag of a sanitized or timed launch
 * asks. */
enum { EVENT_TABLE = 64 };
static uint8_t event_src[EVENT_TABLE], event_dst[EVENT_TABLE];
static pthread_once_t event_once = PTHREAD_ONCE_INIT;

static void event_table_init(void) {
  for (int e = 0; e < EVENT_TABLE; e++) {
    AscPipe s, d;
    event_pipes_named(e, &s, &d);
    event_src[e] = (uint8_t)s;
    event_dst[e] = (uint8_t)d;
  }
}

void asc_event_pipes(int64_t hard_event, AscPipe *src, AscPipe *dst) {
  if (hard_event < 0 || hard_event >= EVENT_TABLE) {
    event_pipes_named(hard_event, src, dst);
    return;
  }
  pthread_once(&event_once, event_table_init);
  *src = (AscPipe)event_src[hard_event];
  *dst = (AscPipe)event_dst[hard_event];
}

/* The HardEvent SRC_DST of each pair of pipes (-1: none), from the names
 * once: a TQue's creation asks twice, per block. */
static int8_t event_of[ASC_PIPE_COUNT][ASC_PIPE_COUNT];
static pthread_once_t event_of_once = PTHREAD_ONCE_INIT;

static void event_of_init(void) {
  for (int s = 0; s < ASC_PIPE_COUNT; s++)
    for (int d = 0; d < ASC_PIPE_COUNT; d++) {
      char name[32];
      int64_t v;
      snprintf(name, sizeof name, "%s_%s", asc_pipe_name((AscPipe)s),
               asc_pipe_name((AscPipe)d));
      event_of[s][d] =
          asc_enum_value_from_name(ASC_ENUM_HARDEVENT, name, &v) == 0 &&
                  v >= 0 && v <= INT8_MAX
              ? (int8_t)v
              : -1;
    }
}

int64_t asc_event_of_pipes(AscPipe src, AscPipe dst) {
  if ((int)src < 0 || src >= ASC_PIPE_COUNT || (int)dst < 0 ||
      dst >= ASC_PIPE_COUNT)
    return -1;
  pthread_once(&event_of_once, event_of_init);
  return event_of[src][dst];
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
