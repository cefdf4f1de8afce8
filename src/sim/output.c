/* What kernels write to the host: LocalTensor.print text and
 * LocalTensor.to_file files.
 *
 * Blocks run on host worker threads, so text printed as it is made would
 * interleave as the threads happen to run. Between asc_output_launch_begin
 * and asc_output_launch_end (which launch.c calls around the blocks of a
 * launch) each block's output is kept, in its own list, and at the end it
 * is written out block after block, in block order, each block's in program
 * order: the same bytes whatever the number of threads. Output outside such
 * a launch (a C test running one block) is written at once. A launch keeps
 * at most OUTPUT_CAP bytes; past that its output is cut, and says so. */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"

enum { OUTPUT_CAP = 64 << 20 };

typedef struct Entry {
  struct Entry *next;
  char *file; /* NULL: text for stdout */
  size_t n;
  char data[]; /* n bytes */
} Entry;

typedef struct Log {
  struct Log *next;
  const void *launch;
  int core_num;
  Entry **head, **tail; /* per block */
  size_t bytes;
  int cut; /* output past OUTPUT_CAP was dropped */
} Log;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static Log *logs;
/* atomic, not under lock: output() writes entries with the lock held */
static atomic_int files_enabled = 1;

void asc_output_set_files(int enabled) {
  atomic_store(&files_enabled, enabled);
}

static void write_file(const char *file, const void *data, size_t n) {
  if (!atomic_load(&files_enabled))
    return;
  FILE *f = fopen(file, "wb");
  if (!f || fwrite(data, 1, n, f) != n) {
    fprintf(stderr, "pyasc: LocalTensor.to_file: cannot write %s: %s\n", file,
            strerror(errno));
    if (f)
      fclose(f);
    return;
  }
  if (fclose(f) != 0)
    fprintf(stderr, "pyasc: LocalTensor.to_file: cannot write %s: %s\n", file,
            strerror(errno));
}

static void write_entry(const char *file, const void *data, size_t n) {
  if (file) {
    write_file(file, data, n);
  } else {
    fwrite(data, 1, n, stdout);
    fflush(stdout);
  }
}

void asc_output_launch_begin(const void *launch, int core_num) {
  Log *l = calloc(1, sizeof *l);
  Entry **h = calloc((size_t)(core_num > 0 ? core_num : 1), sizeof *h);
  Entry **t = calloc((size_t)(core_num > 0 ? core_num : 1), sizeof *t);
  if (!l || !h || !t) { /* out of memory: output is written at once */
    free(l);
    free(h);
    free(t);
    return;
  }
  l->launch = launch;
  l->core_num = core_num;
  l->head = h;
  l->tail = t;
  pthread_mutex_lock(&lock);
  l->next = logs;
  logs = l;
  pthread_mutex_unlock(&lock);
}

void asc_output_launch_end(const void *launch) {
  pthread_mutex_lock(&lock);
  Log **pp = &logs;
  while (*pp && (*pp)->launch != launch)
    pp = &(*pp)->next;
  Log *l = *pp;
  if (l)
    *pp = l->next;
  pthread_mutex_unlock(&lock);
  if (!l)
    return;
  for (int b = 0; b < l->core_num; b++)
    for (Entry *e = l->head[b]; e;) {
      Entry *next = e->next;
      write_entry(e->file, e->data, e->n);
      free(e);
      e = next;
    }
  if (l->cut) {
    fprintf(stdout,
            "(pyasc: more than %d MiB of LocalTensor.print / to_file "
            "output in one launch: the rest was dropped)\n",
            OUTPUT_CAP >> 20);
    fflush(stdout);
  }
  free(l->head);
  free(l->tail);
  free(l);
}

static void output(AscBlockState *b, const char *file, const void *data,
                   size_t n) {
  pthread_mutex_lock(&lock);
  Log *l = logs;
  while (l && l->launch != (const void *)b->control)
    l = l->next;
  if (!l || !b->control || b->block_idx < 0 || b->block_idx >= l->core_num) {
    write_entry(file, data, n); /* (under the lock: calls do not mix) */
    pthread_mutex_unlock(&lock);
    return;
  }
  size_t fn = file ? strlen(file) + 1 : 0;
  Entry *e = NULL;
  if (l->bytes + n + fn <= OUTPUT_CAP)
    e = malloc(sizeof *e + n + fn);
  if (!e) {
    l->cut = 1;
    pthread_mutex_unlock(&lock);
    return;
  }
  e->next = NULL;
  e->n = n;
  memcpy(e->data, data, n);
  e->file = NULL;
  if (file) {
    e->file = e->data + n;
    memcpy(e->file, file, fn);
  }
  l->bytes += n + fn;
  if (l->tail[b->block_idx])
    l->tail[b->block_idx]->next = e;
  else
    l->head[b->block_idx] = e;
  l->tail[b->block_idx] = e;
  pthread_mutex_unlock(&lock);
}

void sim_output_text(AscBlockState *b, const char *text, size_t n) {
  output(b, NULL, text, n);
}

void sim_output_file(AscBlockState *b, const char *file, const void *data,
                     size_t n) {
  output(b, file, data, n);
}
