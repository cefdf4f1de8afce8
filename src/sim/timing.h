/* The timing model: an observer of the event stream (events.h) that gives
 * every instruction of every block a start and an end cycle, and the launch
 * an estimated duration.
 *
 * Per block (one AI Core): the scalar unit issues instructions in program
 * order; each non-scalar instruction runs on its in-order pipe (V, MTE2,
 * MTE3, ...) once issued, once the pipe is free and once its dependencies
 * are met: set_flag/wait_flag pairs (matched k-th set to k-th wait per
 * HardEvent and id), pipe_barrier, and the implicit flags of TQue
 * enque/deque (producer → consumer) and free_tensor/alloc_tensor (consumer
 * → producer). MTE2 and MTE3 share the core's GM port; the port's rate is
 * the core's share of the chip's GM bandwidth, and the core's share of the
 * L2 (timing_gm.c) decides which bytes come from GM and which from the L2.
 * Vector instructions see UB bank conflicts (timing_banks.c). The model is
 * a pure function of each block's event stream: results never depend on
 * host threads.
 *
 * The parameters come from one table per Platform (timing.c), each number
 * with its public source; docs/timing.md explains them. */
#ifndef ASC_SIM_TIMING_H
#define ASC_SIM_TIMING_H

#include <stdint.h>

#include "asc/exec.h"
#include "events.h"

typedef struct AscTimingParams {
  double clock_ghz;             /* AI Core clock */
  double gm_bandwidth_gbps;     /* peak GM (HBM) bandwidth of the chip */
  double gm_efficiency;         /* share of the peak DMA reaches */
  double core_gm_bpc;           /* a core's GM port: bytes per cycle at most */
  double dma_issue_cycles;      /* fixed cost of one MTE2/MTE3 instruction */
  double dma_burst_cycles;      /* each burst (blockCount) on the channel */
  double core_l2_bpc;           /* a core's L2 port: bytes per cycle at most */
  double l2_bandwidth_gbps;     /* peak L2 bandwidth of the chip */
  double l2_size_mb;            /* L2 capacity, shared by the cores in use */
  double l2_line_bytes;         /* L2 line: reuse and misaligned bursts */
  double gm_read_latency;       /* cycles from a read's last byte to its data */
  double gm_write_latency;      /* cycles from a write's last byte to its ack */
  double vec_issue_cycles;      /* fixed cost of one vector instruction */
  double ub_rw_conflict_cycles; /* a repeat whose read and write share a
                                   UB bank */
  double vec_bytes_per_cycle;   /* simple vector ops: bytes per cycle */
  double vec_transcendental_epc; /* exp, ln, sqrt: elements per cycle */
  double vec_division_epc;       /* div: elements per cycle */
  double vec_cast64_epc;   /* casts to or from 64-bit: elements per cycle */
  double scalar_cycles;    /* one scalar instruction */
  double issue_cycles;     /* scalar cycles to issue a pipe instruction */
  double scalar_ub_cycles; /* scalar read or write of one UB element */
  double scalar_gm_cycles; /* scalar read or write of one GM element */
  double sync_cycles;      /* set_flag → wait_flag propagation */
  double block_start_per_core_cycles; /* a block's start-up before its
                                         first instr, per core started (a
                                         MIX launch: per AI Core) */
  double launch_base_us;              /* launch overhead of a 1-core launch */
  double launch_per_core_us;          /* added per further core */
  double max_records;                 /* instruction records kept per launch */
  /* family: cube */
  double cube_fractals_per_cycle;   /* Mmad: 16 x 16 x C0 products a cycle */
  double cube_load_bytes_per_cycle; /* LoadData L1 -> L0: bytes a cycle */
  double mix_message_cycles;        /* the cube core's server handling one
                                       MIX Matmul message */
  double mm_instr_cycles;        /* the Matmul implementation's scalar work for
                                    each cube instruction it issues */
  double mm_block_cycles;        /* ... and for each base block it computes */
  double cube_load_issue_cycles; /* fixed cost of a LoadData L1 -> L0 */
  double cube_mmad_issue_cycles; /* fixed cost of an Mmad */
  double l2_read_latency;        /* a read the L2 serves whole: from its last
                                    byte to its data */
  double dma_burst_min_cycles;   /* a read burst's bytes take at least this */
} AscTimingParams;

/* Default parameters of a platform; returns 0 if the platform has no row. */
int asc_timing_params_default(const char *platform, AscTimingParams *out);

/* The parameters by name (for overrides and reports): the i-th name, its
 * unit and the public source of its default, or NULL past the end. */
const char *asc_timing_param_name(int i, const char **unit,
                                  const char **source);
/* Sets a parameter by name; returns 0 if the name is unknown or the value
 * out of range. */
int asc_timing_param_set(AscTimingParams *p, const char *name, double value);
double asc_timing_param_get(const AscTimingParams *p, int i);

/* What one record describes. */
typedef enum AscTimingKind {
  ASC_TK_OP,      /* an instruction on its pipe */
  ASC_TK_SET,     /* a set_flag (or the implicit one of enque/free_tensor) */
  ASC_TK_WAIT,    /* a wait_flag (or of deque/alloc_tensor): the stall */
  ASC_TK_BARRIER, /* pipe_barrier */
  ASC_TK_SCALAR,  /* an instruction of the scalar unit */
} AscTimingKind;

/* Memory paths, for the bytes moved. */
typedef enum AscTimingPath {
  ASC_PATH_NONE,
  ASC_PATH_GM_UB, /* MTE2 */
  ASC_PATH_UB_GM, /* MTE3 */
  ASC_PATH_UB_UB, /* vector-unit copies */
  ASC_PATH_GM_S,  /* scalar reads of GM */
  ASC_PATH_S_GM,  /* scalar writes of GM */
  ASC_PATH_UB_S,  /* scalar reads of UB */
  ASC_PATH_S_UB,  /* scalar writes of UB */
  ASC_PATH_COUNT
} AscTimingPath;

/* One instruction's timing (cycles from the block's start): its pipe is
 * busy from start to end; its results are complete at done (DMA: end plus
 * the GM latency; else end). */
typedef struct AscTimingRecord {
  int64_t start, end, done;
  int64_t issue; /* when the scalar unit issued it */
  int64_t bytes;
  int32_t site; /* the instruction: index into asc_timing_site */
  int32_t flow; /* SET / WAIT: the id shared by a matched pair, else -1 */
  uint8_t pipe; /* AscPipe */
  uint8_t kind; /* AscTimingKind */
  uint8_t path; /* AscTimingPath */
  uint8_t pad[5];
} AscTimingRecord;

/* Per instruction (site), summed over the blocks: what it cost. */
typedef struct AscTimingSiteStat {
  int64_t count;
  int64_t scalar; /* scalar-unit cycles (issue or execution) */
  int64_t busy;   /* cycles on its pipe */
  int64_t stall;  /* cycles its pipe waited (wait_flag, deque, alloc) */
} AscTimingSiteStat;

typedef struct AscTimingBlock {
  int64_t cycles; /* the block's duration */
  int64_t busy[ASC_PIPE_COUNT];
  int64_t stall[ASC_PIPE_COUNT];
  int64_t instrs[ASC_PIPE_COUNT];
  int64_t bytes[ASC_PATH_COUNT];
  const AscTimingRecord *records;
  int64_t n_records;
  int truncated; /* records beyond the cap were not kept */
} AscTimingBlock;

typedef struct AscTiming AscTiming;

/* A timing model for one launch of `k` with `block_num` blocks. `record`:
 * keep per-instruction records (for traces). NULL when out of memory. */
AscTiming *asc_timing_new(const AscTimingParams *params, const AscKernel *k,
                          const AscPlatform *platform, int block_num,
                          int record);
void asc_timing_free(AscTiming *t);
/* The observer to pass in AscLaunchOptions. */
AscObserver asc_timing_observer(AscTiming *t);
/* system family: the model's clock in GHz (GetSystemCycle converts with it) */
double asc_timing_clock_ghz(const AscTiming *t);

const AscTimingParams *asc_timing_params(const AscTiming *t);
/* Results, after a successful launch. */
const AscTimingBlock *asc_timing_block(const AscTiming *t, int block);
/* Physical cores used (blocks beyond them run in later waves). */
int asc_timing_cores(const AscTiming *t);
int64_t asc_timing_launch_overhead(const AscTiming *t); /* cycles */
/* The slowest core (the sum of its waves of blocks) plus launch overhead. */
int64_t asc_timing_duration(const AscTiming *t);
/* The core's GM port rate used, bytes per cycle. */
double asc_timing_port_rate(const AscTiming *t);
/* A block's start-up, cycles (block_start_per_core_cycles x the cores the
 * launch starts; a MIX launch's AI Cores). */
int64_t asc_timing_block_start(const AscTiming *t);

/* Instructions (sites): every op-table instruction of the kernel. */
int asc_timing_n_sites(const AscTiming *t);
const struct AscInstr *asc_timing_site(const AscTiming *t, int site);
/* The site's op name (NULL for control flow), Python location, pipe and a
 * detail (the HardEvent of set/wait_flag, the PipeID of pipe_barrier, or
 * ""). */
const char *asc_timing_site_info(const AscTiming *t, int site, AscLoc *loc,
                                 AscPipe *pipe, const char **detail);
/* asc_timing_n_sites entries. */
const AscTimingSiteStat *asc_timing_site_stats(const AscTiming *t);

/* family debug: the cycle at which block b's scalar unit issues its next
 * instruction (what PrintTimeStamp prints), with *entry the block's start;
 * -1 when the timing model is not attached to b or cannot tell yet (an
 * earlier instruction waits for a flag set later). */
struct AscBlockState;
int64_t asc_timing_block_cycle(const struct AscBlockState *b, int64_t *entry);

#endif
