/* The sanitizer: an observer of the event stream (events.h) that finds the
 * bugs the simulator's program-order execution hides and the NPU does not
 * forgive — data races between the pipes of a core and between cores,
 * reads of local memory never written, misuse of set_flag / wait_flag, and
 * DataCopy lengths that lose bytes. docs/sanitizer.md gives the model (the
 * happens-before rules and the devkit pages they come from).
 *
 * Use: create one per launch, attach its observer to the launch options,
 * call asc_sanitizer_finish after asc_kernel_launch returns (it adds the
 * races between cores, which need every block's accesses), read the
 * reports, free it. Creating one is cheap: the shadow memory comes from a
 * process-wide pool and is reused by later launches. */
#ifndef ASC_SIM_SANITIZER_H
#define ASC_SIM_SANITIZER_H

#include <stdint.h>

#include "asc/exec.h"
#include "events.h"

typedef enum AscSanMode {
  ASC_SAN_OFF,
  ASC_SAN_WARN,  /* collect reports (one per pair of API calls) */
  ASC_SAN_ERROR, /* the first report fails its block */
} AscSanMode;

/* asc_sanitizer_new flags */
enum {
  /* The kernel is compiled with the compiler's automatic synchronisation
   * (bisheng --cce-auto-sync, pyasc's auto_sync=True): it orders the scalar
   * unit's get_value / set_value against the V, MTE2 and MTE3 pipes, and
   * vector instructions among themselves. Without it these need flags. */
  ASC_SAN_AUTO_SYNC = 1,
};

typedef enum AscSanKind {
  ASC_SAN_RACE,      /* two pipes of one core, local memory */
  ASC_SAN_CORE_RACE, /* two blocks, global memory */
  ASC_SAN_UNINIT,    /* local memory read but never written in the block */
  ASC_SAN_SYNC,      /* set_flag / wait_flag misuse */
  ASC_SAN_ALIGN,     /* a DataCopy length that is not whole 32-byte blocks */
  ASC_SAN_OVERRUN,   /* a GM access past the end of its kernel argument */
  /* the scalar unit's data cache (sanitizer_dcache.c): */
  ASC_SAN_STALE_READ, /* a read of GM bytes a scalar write left in the cache */
  ASC_SAN_STALE_LINE, /* a scalar read of a cached line a pipe wrote since */
  ASC_SAN_LOST_WRITE, /* a write the write-back of a dirty line overwrites */
} AscSanKind;

typedef struct AscSanReport {
  AscSanKind kind;
  int warning; /* a warning in every mode (never fails a launch) */
  int block;   /* the block of the reported API call */
  int block2;  /* CORE_RACE and the data cache's kinds between blocks: the
                 other block; else -1 */
  AscLoc loc;  /* the reported API call */
  AscLoc loc2; /* the other API call involved (line 0: none) */
  const char *op, *op2; /* their IR op names (NULL: none) */
  int pipe, pipe2;      /* their pipes (AscPipe; ASC_PIPE_COUNT: none) */
  int space;            /* AscSpace of the memory; -1: none */
  int buf;              /* GM: the kernel argument; else -1 */
  int64_t lo, hi;       /* the byte range involved (UB address / GM offset) */
  char message[768];    /* what happened, naming both calls */
  char fix[384];        /* what to change, with concrete lines */
} AscSanReport;

typedef struct AscSanitizer AscSanitizer;

/* NULL when out of memory. */
AscSanitizer *asc_sanitizer_new(AscSanMode mode, int flags, int core_num);
void asc_sanitizer_free(AscSanitizer *s);
/* The observer to put in AscLaunchOptions (lives as long as s). */
const AscObserver *asc_sanitizer_observer(AscSanitizer *s);
/* Call after asc_kernel_launch with its status and error: checks the races
 * between cores (when the launch succeeded), and in error mode turns the
 * first report into *err. Returns the launch's final status. */
AscStatus asc_sanitizer_finish(AscSanitizer *s, AscStatus status,
                               AscLaunchError *err);
/* The reports, ordered by block: in warn mode every report; in error mode
 * the warnings and the report that failed the launch. */
int asc_sanitizer_count(const AscSanitizer *s);
const AscSanReport *asc_sanitizer_report(const AscSanitizer *s, int i);
/* The index of the report *err describes after finish, or -1. */
int asc_sanitizer_error_index(const AscSanitizer *s);

/* Names for messages: "MTE2", "race", ... */
const char *asc_san_pipe_name(int pipe);
const char *asc_san_kind_name(AscSanKind kind);

#endif
