/* The timing model (see timing.h for what it models, docs/timing.md for
 * the parameters and their sources).
 *
 * Each event becomes a node: a scalar part (the scalar unit issues it, or
 * executes it if it is a scalar instruction) and, for the other pipes, a
 * pipe part (an instruction, a set or a wait of a flag, a barrier). Nodes
 * are resolved as soon as what they depend on is known; in the common case
 * (every wait_flag after its set_flag in program order) that is at once,
 * with O(1) work per event. A wait issued before its set (legal when the
 * waiting pipe is not the scalar unit) leaves nodes pending until the set
 * arrives; they are resolved then, in program order per pipe. */
#include "timing.h"

#include <math.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"
#include "timing_internal.h"

/* ---- parameters -------------------------------------------------------- */

/* Atlas A2 / A3 (NPU architecture 2201: Ascend910B*, Ascend910_93*). The
 * sources, all public (docs/timing.md shows the derivations):
 *   [ADD]  asc-devkit examples/01_simd_cpp_api/05_best_practices/
 *          00_vector_compute/add_high_performance/README: measured
 *          profiles of an 8192x8192 half Add on Atlas A2, cases 0-6.
 *   [COPY] asc-devkit examples/.../04_memory_access/data_copy/README:
 *          measured GM->UB (48 vector cores) and GM->L1 (24 cube cores)
 *          transfers of 12288x12288 half, scenarios 1-8 (A2/A3 rows).
 *   [BANK] asc-devkit examples/.../04_memory_access/bank_conflict_ub/
 *          README: cycles of 1000 Adds in 8 UB layouts (system counter
 *          ticks at 50 MHz; 37 cycles a tick).
 *   [CACHE] asc-devkit docs/zh/guide/编程指南/高级编程/内存模型/
 *          缓存一致性 (L2: 512-byte lines, 192 MB).
 *   [KFC]  asc-devkit docs/zh/guide/算子实践参考/优秀实践/Matmul性能调优案例/
 *          Matmul高阶API使能纯Cube模式: M 128, N 30720, K 64 half on 24 AI
 *          Cores; MIX (48 vector clients of 3 blocks each): the slowest
 *          cube core's aic_time 17.85 us, its scalar time 15.02 us; pure
 *          Cube (24 cube cores of 5 blocks): 11.21 us, 5.17 us (and
 *          Matmul高阶API使能Tiling全量常量化, the same pure-Cube kernel:
 *          10.62 us, 6.32 us, its first MTE2 at 3.536 us).
 *   [VEC]  asc-devkit docs/zh/api/附录/Vector指令理论性能汇总 (vector
 *          instruction throughput, elements per cycle, Atlas A2/A3).
 *   [PERF] asc-devkit docs/zh/guide/算子实践参考/性能分析/分析性能数据
 *          (theoretical transfer time = bytes / GM bandwidth; MTE2 and
 *          MTE3 share the GM bandwidth).
 *   [STUB] asc-devkit tests/api/common/platform_stub.cpp, arch 2201:
 *          GetLocalMemBw(HBM) = 32, GetLocalMemBw(L2) = 110 bytes/cycle.
 * "fitted" marks a number fitted to the one measurement named; the
 * calibration benchmark (benchmarks/timing_calibration.py) holds the other
 * measurements out as checks. */
static const AscTimingParams a2_params = {
    /* [ADD] "clock frequency 1.85GHz" */
    .clock_ghz = 1.85,
    /* [PERF], [COPY]: "GM bandwidth approximately 1.8TB/s" */
    .gm_bandwidth_gbps = 1800.0,
    /* fitted: [COPY] UB scenario 3, 7811 cycles per 128 KiB copy (48
     * cores): 16.81 bytes a cycle a core */
    .gm_efficiency = 0.829,
    /* [STUB] */
    .core_gm_bpc = 32.0,
    /* fitted: [COPY] UB scenario 1, 20.63 cycles per 128-byte copy of which
     * 7.62 at the core's GM share */
    .dma_issue_cycles = 13.0,
    /* fitted: [COPY] L1 scenario 1, 64 rows of 128 bytes in 341.5 cycles =
     * 13 + 64 x (1.13 + 128 / 32) */
    .dma_burst_cycles = 1.13,
    /* [STUB]: GetLocalMemBw(L2) = 110 bytes/cycle */
    .core_l2_bpc = 110.0,
    /* [COPY]: "L2Cache peak bandwidth approximately 5.2TB/s" */
    .l2_bandwidth_gbps = 5200.0,
    /* [COPY]: "A2/A3 has an L2Cache size of 192MB" */
    .l2_size_mb = 192.0,
    /* [CACHE]: the L2 manages 512-byte cache lines */
    .l2_line_bytes = 512.0,
    /* fitted: [ADD] case 1, MTE2 busy 701 cycles per tile =
     * 2 x (13 + 1.13 + 256) + 161 */
    .gm_read_latency = 161.0,
    /* fitted: [ADD] case 1, MTE3 busy 295 cycles per tile =
     * 13 + 1.13 + 256 + 25 */
    .gm_write_latency = 25.0,
    /* fitted: [BANK] scenario 1, 88.4 cycles per 64-repeat Add = 24 + 64 */
    .vec_issue_cycles = 24.0,
    /* fitted: [BANK] scenario 5, 138.8 cycles per 64-repeat Add whose write
     * meets a read in a bank every repeat = 24 + 64 x 1.79 */
    .ub_rw_conflict_cycles = 0.79,
    /* [VEC] Add: 128 half or 64 float per cycle, one 256-byte repeat */
    .vec_bytes_per_cycle = 256.0,
    /* [VEC] Exp, Ln, Sqrt: 32 elements per cycle */
    .vec_transcendental_epc = 32.0,
    /* [VEC] Div: 32 elements per cycle */
    .vec_division_epc = 32.0,
    /* [VEC] Cast to or from int64: 32 elements per cycle */
    .vec_cast64_epc = 32.0,
    /* [VEC] tables 17-18: scalar instructions take 1 cycle */
    .scalar_cycles = 1.0,
    /* [ADD] case 1: 26 scalar cycles per tile of about 10 API calls */
    .issue_cycles = 2.0,
    /* [ADD] case 0: 34 scalar cycles per element (3 UB accesses) */
    .scalar_ub_cycles = 11.0,
    /* a scalar GM access waits for the GM read latency */
    .scalar_gm_cycles = 161.0,
    /* [ADD] case 1: MTE2 + Add per tile already fill the measured time */
    .sync_cycles = 0.0,
    /* fitted: [COPY] UB scenario 3, a core's time (386738 cycles) beyond
     * the model's without start-up, over 48 cores (the devkit: head
     * overheads grow with the cores started; a MIX launch starts AI Cores,
     * asc_timing_block_start) */
    .block_start_per_core_cycles = 243.0,
    /* [ADD] cases 0 and 1 (1 core): Task Duration - aiv_time */
    .launch_base_us = 0.46,
    /* [ADD] case 5 (48 cores): Task Duration - aiv_time = 2.53 us */
    .launch_per_core_us = 0.044,
    /* a limit of the trace, not of the hardware */
    .max_records = 1e6,
    /* family: cube. [CUBE] (devkit docs/zh/api/附录/Cube指令理论性能汇总.md,
     * arch 2201): cube_m x cube_n x cube_k = 16 x 16 x k0 for int8, half
     * and bfloat16 (one 16 x 16 x k0 fractal product a cycle), 16 x 16 x 4
     * for float (k0 8: half that; cube_ops.c counts float fractals twice) */
    .cube_fractals_per_cycle = 1.0,
    /* fitted: [MMHP] Cases 0 and 1 (one core, depth 1), aic_mte1_time a
     * K step: two loads of 8 KiB in 143.0 cycles, of 16 and 32 KiB in
     * 367.0: 2 x 15.5 + 16384 / 146.3 and 2 x 15.5 + 49152 / 146.3 (the
     * model: 144 and 368, a load's issue in whole cycles) */
    .cube_load_bytes_per_cycle = 146.3,
    /* fitted: [KFC] the MIX case's aic_time, 17.85 us = 33022 cycles: 26366
     * without messages (start-up 5832 + the clients' share of the cube
     * work and of the Matmul's own scalar work) + 2 clients x 4 messages
     * (Init, IterateAll, End, Quit) x 832 */
    .mix_message_cycles = 832.0,
    /* fitted: [MMHP] Case 0's aic_scalar_time a K step (448.8 cycles) and
     * [KFC] the pure-Cube case's scalar time (9565 cycles), together with
     * mm_block_cycles: 448.8 = 36.3 (the flags' issue) + 5 x 80 + (80 +
     * 1366) / 128 (a block's Fixpipe and own work over its 128 K steps:
     * 447.6); 9565 = 252 (the kernel's own) + 31 x 80 (Init's 5 buffers, 6
     * copies, 10 loads, 5 Mmads, 5 Fixpipes) + 5 x 1366 (whole cycles: the
     * exact solution is 80.25 and 1363) */
    .mm_instr_cycles = 80.0,
    /* fitted: with mm_instr_cycles (above) */
    .mm_block_cycles = 1366.0,
    /* fitted: with cube_load_bytes_per_cycle (above; 15.5 in whole
     * cycles) */
    .cube_load_issue_cycles = 16.0,
    /* fitted: [MMHP] Case 0's aic_mac_time a K step, 125.0 cycles for a
     * 64 x 64 x 64 half Mmad (64 fractals) = 61 + 64 (Case 1's 512
     * fractals: 573 against 575.0 measured) */
    .cube_mmad_issue_cycles = 61.0,
    /* fitted, with dma_burst_min_cycles: [MMHP] Cases 0 and 1 (one core,
     * reads the L2 serves), aic_mte2_time a K step: 513.9 cycles for two
     * copies of 64 rows of 128 B, 1380.5 for 128 + 256 rows = 2 x 13 +
     * rows x (1.13 + 2.255) + 55 (the pair's last copy's data) */
    .l2_read_latency = 55.0,
    /* fitted: with l2_read_latency (above): a 128-byte row from the L2 in
     * 2.255 cycles, not 128 / 110 (from HBM: 4, unchanged) */
    .dma_burst_min_cycles = 2.255,
};

static const struct {
  const char *name;
  const AscTimingParams *params;
} platform_params[] = {
    {"Ascend910B1", &a2_params},    {"Ascend910B2", &a2_params},
    {"Ascend910B2C", &a2_params},   {"Ascend910B3", &a2_params},
    {"Ascend910B4", &a2_params},    {"Ascend910B4-1", &a2_params},
    {"Ascend910_9362", &a2_params}, {"Ascend910_9372", &a2_params},
    {"Ascend910_9381", &a2_params}, {"Ascend910_9382", &a2_params},
    {"Ascend910_9391", &a2_params}, {"Ascend910_9392", &a2_params},
};

int asc_timing_params_default(const char *platform, AscTimingParams *out) {
  for (size_t i = 0; i < sizeof platform_params / sizeof platform_params[0];
       i++)
    if (strcmp(platform_params[i].name, platform) == 0) {
      *out = *platform_params[i].params;
      return 1;
    }
  return 0;
}

#define PARAM(field, unit, source)                                             \
  {#field, unit, source, offsetof(AscTimingParams, field)}

static const struct {
  const char *name, *unit, *source;
  size_t offset;
} param_table[] = {
    PARAM(clock_ghz, "GHz", "devkit add_high_performance README"),
    PARAM(gm_bandwidth_gbps, "GB/s",
          "devkit performance guide; data_copy README"),
    PARAM(gm_efficiency, "", "fitted: devkit data_copy README, UB scenario 3"),
    PARAM(core_gm_bpc, "B/cycle",
          "devkit platform stub (arch 2201) GetLocalMemBw(HBM)"),
    PARAM(dma_issue_cycles, "cycles",
          "fitted: devkit data_copy README, UB scenario 1"),
    PARAM(dma_burst_cycles, "cycles",
          "fitted: devkit data_copy README, L1 scenario 1"),
    PARAM(core_l2_bpc, "B/cycle",
          "devkit platform stub (arch 2201) GetLocalMemBw(L2)"),
    PARAM(l2_bandwidth_gbps, "GB/s", "devkit data_copy README (L2 peak)"),
    PARAM(l2_size_mb, "MiB", "devkit data_copy README; cache coherence guide"),
    PARAM(l2_line_bytes, "B", "devkit cache coherence guide (512 B lines)"),
    PARAM(gm_read_latency, "cycles", "fitted: devkit Add example, case 1"),
    PARAM(gm_write_latency, "cycles", "fitted: devkit Add example, case 1"),
    PARAM(vec_issue_cycles, "cycles",
          "fitted: devkit bank_conflict_ub README, scenario 1"),
    PARAM(ub_rw_conflict_cycles, "cycles",
          "fitted: devkit bank_conflict_ub README, scenario 5"),
    PARAM(vec_bytes_per_cycle, "B/cycle", "devkit vector throughput table"),
    PARAM(vec_transcendental_epc, "elements/cycle",
          "devkit vector throughput table (Exp, Ln, Sqrt)"),
    PARAM(vec_division_epc, "elements/cycle",
          "devkit vector throughput table (Div)"),
    PARAM(vec_cast64_epc, "elements/cycle",
          "devkit vector throughput table (Cast, 64-bit)"),
    PARAM(scalar_cycles, "cycles", "devkit scalar instruction table"),
    PARAM(issue_cycles, "cycles", "fitted: devkit Add example, case 1"),
    PARAM(scalar_ub_cycles, "cycles", "fitted: devkit Add example, case 0"),
    PARAM(scalar_gm_cycles, "cycles", "the GM read latency"),
    PARAM(sync_cycles, "cycles", "fitted: devkit Add example, case 1"),
    PARAM(block_start_per_core_cycles, "cycles",
          "fitted: devkit data_copy README, UB scenario 3"),
    PARAM(launch_base_us, "us", "fitted: devkit Add example, cases 0-1"),
    PARAM(launch_per_core_us, "us", "fitted: devkit Add example, case 5"),
    PARAM(max_records, "records", "trace size limit (not hardware)"),
    PARAM(cube_fractals_per_cycle, "fractals/cycle",
          "devkit Cube instruction throughput table (Mmad)"),
    PARAM(cube_load_bytes_per_cycle, "B/cycle",
          "fitted: devkit matmul_high_performance README, Cases 0-1 "
          "(aic_mte1_time)"),
    PARAM(mix_message_cycles, "cycles",
          "fitted: devkit guide, Matmul pure Cube mode case (MIX aic_time)"),
    PARAM(mm_instr_cycles, "cycles",
          "fitted: devkit matmul_high_performance README, Case 0 "
          "(aic_scalar_time), and guide, Matmul pure Cube mode case (its "
          "scalar time)"),
    PARAM(mm_block_cycles, "cycles", "fitted: as mm_instr_cycles, with it"),
    PARAM(cube_load_issue_cycles, "cycles",
          "fitted: devkit matmul_high_performance README, Cases 0-1 "
          "(aic_mte1_time)"),
    PARAM(cube_mmad_issue_cycles, "cycles",
          "fitted: devkit matmul_high_performance README, Case 0 "
          "(aic_mac_time)"),
    PARAM(l2_read_latency, "cycles",
          "fitted: devkit matmul_high_performance README, Cases 0-1 "
          "(aic_mte2_time)"),
    PARAM(dma_burst_min_cycles, "cycles",
          "fitted: devkit matmul_high_performance README, Cases 0-1 "
          "(aic_mte2_time)"),
};

enum { N_PARAMS = (int)(sizeof param_table / sizeof param_table[0]) };

const char *asc_timing_param_name(int i, const char **unit,
                                  const char **source) {
  if (i < 0 || i >= N_PARAMS)
    return NULL;
  if (unit)
    *unit = param_table[i].unit;
  if (source)
    *source = param_table[i].source;
  return param_table[i].name;
}

double asc_timing_param_get(const AscTimingParams *p, int i) {
  if (i < 0 || i >= N_PARAMS)
    return 0;
  double v;
  memcpy(&v, (const char *)p + param_table[i].offset, sizeof v);
  return v;
}

int asc_timing_param_set(AscTimingParams *p, const char *name, double value) {
  for (int i = 0; i < N_PARAMS; i++)
    if (strcmp(param_table[i].name, name) == 0) {
      if (!isfinite(value) || value < 0)
        return 0;
      /* rates and the clock divide: they must be positive */
      if (value == 0 &&
          (strstr(name, "ghz") || strstr(name, "gbps") || strstr(name, "bpc") ||
           strstr(name, "epc") || strstr(name, "per_cycle") ||
           strstr(name, "efficiency")))
        return 0;
      /* a line is a power of two of at least a 32-byte block */
      if (strcmp(name, "l2_line_bytes") == 0 &&
          (value < 32 || value > 1048576 || (int64_t)value != value ||
           ((int64_t)value & ((int64_t)value - 1))))
        return 0;
      memcpy((char *)p + param_table[i].offset, &value, sizeof value);
      return 1;
    }
  return 0;
}

/* ---- growable buffers --------------------------------------------------- */

typedef struct Ring {
  int64_t *v;
  int64_t head, n, cap;
} Ring;

static int ring_push(Ring *r, int64_t x) {
  if (r->n == r->cap) {
    int64_t cap = r->cap ? r->cap * 2 : 8;
    int64_t *v = malloc((size_t)cap * sizeof *v);
    if (!v)
      return 0;
    for (int64_t i = 0; i < r->n; i++)
      v[i] = r->v[(r->head + i) % r->cap];
    free(r->v);
    r->v = v;
    r->head = 0;
    r->cap = cap;
  }
  r->v[(r->head + r->n) % r->cap] = x;
  r->n++;
  return 1;
}

static int64_t ring_pop(Ring *r) {
  int64_t x = r->v[r->head];
  r->head = (r->head + 1) % r->cap;
  r->n--;
  return x;
}

/* ---- per-block model ----------------------------------------------------- */

typedef enum NodeKind {
  NK_SCALAR,      /* runs on the scalar unit only */
  NK_OP,          /* an instruction on `pipe` */
  NK_SET,         /* a flag set by `pipe` (S: at issue) */
  NK_WAIT,        /* `pipe` (not S) waits for signal `dep` */
  NK_SWAIT,       /* the scalar unit waits for signal `dep` */
  NK_BARRIER,     /* pipe_barrier(pipe) */
  NK_BARRIER_ALL, /* pipe_barrier(PIPE_ALL): everything waits */
} NodeKind;

enum { DEP_NONE = -1, DEP_UNMATCHED = -2 };

typedef struct Node {
  int64_t issue; /* scalar issue done; -1: not yet known */
  int64_t issue_start;
  int64_t cost;    /* pipe cycles (DMA: the fixed part) */
  int64_t port;    /* DMA: cycles on the core's share of GM bandwidth */
  int64_t port_l2; /* DMA: cycles on the core's share of L2 bandwidth */
  int64_t chan;    /* DMA: cycles on the pipe's own channel */
  int64_t lat;     /* DMA: completion latency */
  int64_t bytes;
  int32_t site;
  int32_t dep; /* signal waited for, DEP_NONE or DEP_UNMATCHED */
  int32_t sig; /* signal produced (NK_SET), -1 */
  int32_t scost;
  uint8_t kind, pipe, path, resolved;
  uint8_t rec_kind; /* AscTimingKind of the pipe part */
  const AscInstr *in;
} Node;

typedef struct Signal {
  int64_t time; /* -1: not yet known */
  int32_t flow;
  int32_t next_free;
} Signal;

enum { MAX_QUEUES = 64, PORT_MAX = 128 };

/* A shared port (the core's share of the GM or of the L2 bandwidth): the
 * busy intervals MTE2 and MTE3 booked on it, sorted. */
typedef struct Port {
  int64_t s[PORT_MAX], e[PORT_MAX];
  int n;
} Port;

typedef struct QueState {
  const void *que;
  int32_t enq[ASC_MAX_QUE_BUFS];  /* signal of the last enque */
  int32_t free[ASC_MAX_QUE_BUFS]; /* signal of the last free_tensor */
} QueState;

typedef struct Work {
  int64_t S;                       /* the scalar unit's next issue cycle */
  int64_t free_at[ASC_PIPE_COUNT]; /* a pipe may start its next instr */
  int64_t done_at[ASC_PIPE_COUNT]; /* every issued instr has completed */
  int64_t busy_until[ASC_PIPE_COUNT];
  int scalar_blocked;      /* a node's scalar part waits for an unknown time */
  int matched_held;        /* a set_flag released a wait issued before it */
  int64_t pipe_unresolved; /* issued pipe parts not yet resolved */
  /* pending nodes in program order: seq base .. base + n */
  Node *pend;
  int64_t pend_head, pend_n, pend_cap, pend_base;
  /* signals */
  Signal *sigs;
  int32_t n_sigs, cap_sigs, free_sig;
  int32_t next_flow;
  /* flags: per (HardEvent, id) the unmatched sets and held waits */
  Ring sets[ASC_MAX_EVENTS * ASC_MAX_EVENT_IDS];
  Ring held[ASC_MAX_EVENTS * ASC_MAX_EVENT_IDS];
  QueState ques[MAX_QUEUES];
  int n_ques;
  /* the shared ports; the block's share of the L2 (timing_gm.c) */
  Port hbm, l2port;
  TimingL2 l2;
  TimingBankMemo banks;
  /* site lookup cache */
  int last_func;
  /* family: matmul: a MIX kernel's vector core whose Matmul the cube core
   * of its AI Core serves for `clients` vector cores (0: not one) */
  int clients;
  /* the Matmul client registered (its KfcCommClient posts a Quit when the
   * kernel ends): its register_matmul, and that instruction's site */
  const AscInstr *kfc_in;
  int32_t kfc_site;
  /* the message of the running call was charged with one of its steps */
  int msg_charged;
} Work;

typedef struct BlockSlot {
  AscTimingBlock res;
  AscTimingRecord *recs;
  int64_t n_recs, cap_recs, max_recs;
  Work *work;
  AscTimingSiteStat *sites;
} BlockSlot;

struct AscTiming {
  AscTimingParams p;
  const AscKernel *k;
  const AscPlatform *platform;
  int block_num, cores, record;
  /* the units the launch starts: its cores, or a MIX kernel's AI Cores
   * (a cube core and its vector cores start together) */
  int units;
  int64_t *func_base; /* site index of each function's first instr */
  int n_sites;
  const AscInstr **site_instr;
  double port_rate; /* the core's share of GM bandwidth, bytes per cycle */
  int shared_port;  /* MTE2 and MTE3 together can exceed the share */
  double l2_rate;   /* the core's share of L2 bandwidth, bytes per cycle */
  int shared_l2;    /* the same for the L2 */
  int64_t l2_lines; /* the core's share of the L2, lines */
  int line_shift;   /* log2(l2_line_bytes) */
  BlockSlot *blocks;
  AscTimingSiteStat *sites; /* merged over blocks */
  pthread_mutex_t lock;
};

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }
static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

/* Whole cycles (rounded up), kept far from int64 overflow whatever the
 * parameters are. */
static int64_t cycles_of(double c) {
  if (!(c > 0))
    return 0;
  if (c > 1e12)
    return (int64_t)1e12;
  return (int64_t)ceil(c - 1e-9);
}

static int site_of(const AscTiming *t, Work *w, const AscInstr *in) {
  const AscKernel *k = t->k;
  in = sim_step_parent(in); /* family: matmul: a step is its API's site */
  int f = w->last_func;
  if (f >= 0 && f < k->n_funcs && in >= k->funcs[f].code &&
      in < k->funcs[f].code + k->funcs[f].n_code)
    return (int)(t->func_base[f] + (in - k->funcs[f].code));
  for (f = 0; f < k->n_funcs; f++)
    if (in >= k->funcs[f].code && in < k->funcs[f].code + k->funcs[f].n_code) {
      w->last_func = f;
      return (int)(t->func_base[f] + (in - k->funcs[f].code));
    }
  return -1;
}

/* ---- signals ------------------------------------------------------------- */

static int32_t sig_new(Work *w) {
  int32_t i;
  if (w->free_sig >= 0) {
    i = w->free_sig;
    w->free_sig = w->sigs[i].next_free;
  } else {
    if (w->n_sigs == w->cap_sigs) {
      int32_t cap = w->cap_sigs ? w->cap_sigs * 2 : 64;
      Signal *s = realloc(w->sigs, (size_t)cap * sizeof *s);
      if (!s)
        return -1;
      w->sigs = s;
      w->cap_sigs = cap;
    }
    i = w->n_sigs++;
  }
  w->sigs[i].time = -1;
  w->sigs[i].flow = w->next_flow++;
  w->sigs[i].next_free = -1;
  return i;
}

static void sig_release(Work *w, int32_t i) {
  if (i < 0)
    return;
  w->sigs[i].next_free = w->free_sig;
  w->free_sig = i;
}

/* ---- records ------------------------------------------------------------- */

static void add_record(AscTiming *t, BlockSlot *bs, const Node *n,
                       AscTimingKind kind, AscPipe pipe, int64_t start,
                       int64_t end, int64_t done, int32_t flow) {
  AscTimingBlock *r = &bs->res;
  AscTimingSiteStat *st = n->site >= 0 ? &bs->sites[n->site] : NULL;
  int64_t d = done - start;
  if (kind == ASC_TK_WAIT && pipe < ASC_PIPE_COUNT) {
    r->stall[pipe] += d;
    if (st)
      st->stall += d;
  } else if (kind == ASC_TK_OP && st) {
    st->busy += d;
  }
  if (!t->record)
    return;
  if (bs->n_recs >= bs->max_recs) {
    r->truncated = 1;
    return;
  }
  if (bs->n_recs == bs->cap_recs) {
    int64_t cap = bs->cap_recs ? bs->cap_recs * 2 : 1024;
    if (cap > bs->max_recs)
      cap = bs->max_recs;
    AscTimingRecord *v = realloc(bs->recs, (size_t)cap * sizeof *v);
    if (!v) {
      r->truncated = 1;
      return;
    }
    bs->recs = v;
    bs->cap_recs = cap;
  }
  AscTimingRecord *rec = &bs->recs[bs->n_recs++];
  memset(rec, 0, sizeof *rec);
  rec->start = start;
  rec->end = end;
  rec->done = done;
  rec->issue = n->issue;
  rec->bytes = n->bytes;
  rec->site = n->site;
  rec->flow = flow;
  rec->pipe = (uint8_t)pipe;
  rec->kind = (uint8_t)kind;
  rec->path = n->path;
}

/* Union of busy intervals of an in-order pipe (DMA completions overlap). */
static void add_busy(BlockSlot *bs, Work *w, int pipe, int64_t s, int64_t e) {
  int64_t from = max64(s, w->busy_until[pipe]);
  if (e > from)
    bs->res.busy[pipe] += e - from;
  w->busy_until[pipe] = max64(w->busy_until[pipe], e);
}

/* ---- the shared ports ---------------------------------------------------- */

/* Forgets intervals no future transfer can use: every later transfer
 * starts at or after the MTE pipes' free times. */
static void port_prune(Port *pt, const Work *w) {
  int64_t floor = min64(w->free_at[ASC_PIPE_MTE2], w->free_at[ASC_PIPE_MTE3]);
  int drop = 0;
  while (drop < pt->n && pt->e[drop] <= floor)
    drop++;
  if (drop) {
    memmove(pt->s, pt->s + drop, (size_t)(pt->n - drop) * sizeof pt->s[0]);
    memmove(pt->e, pt->e + drop, (size_t)(pt->n - drop) * sizeof pt->e[0]);
    pt->n -= drop;
  }
}

static void port_insert(Port *pt, int at, int64_t s, int64_t e) {
  if (pt->n == PORT_MAX) {
    /* full: fuse two neighbours away from the insertion point (the gap
     * between them is lost, which can only delay transfers) */
    int j = at >= 2 ? 0 : pt->n - 2;
    pt->e[j] = pt->e[j + 1];
    memmove(pt->s + j + 1, pt->s + j + 2,
            (size_t)(pt->n - j - 2) * sizeof pt->s[0]);
    memmove(pt->e + j + 1, pt->e + j + 2,
            (size_t)(pt->n - j - 2) * sizeof pt->e[0]);
    pt->n--;
    if (at > j)
      at--;
  }
  memmove(pt->s + at + 1, pt->s + at, (size_t)(pt->n - at) * sizeof pt->s[0]);
  memmove(pt->e + at + 1, pt->e + at, (size_t)(pt->n - at) * sizeof pt->e[0]);
  pt->s[at] = s;
  pt->e[at] = e;
  pt->n++;
  /* merge with neighbours that touch */
  if (at + 1 < pt->n && pt->s[at + 1] <= pt->e[at]) {
    pt->e[at] = max64(pt->e[at], pt->e[at + 1]);
    memmove(pt->s + at + 1, pt->s + at + 2,
            (size_t)(pt->n - at - 2) * sizeof pt->s[0]);
    memmove(pt->e + at + 1, pt->e + at + 2,
            (size_t)(pt->n - at - 2) * sizeof pt->e[0]);
    pt->n--;
  }
  if (at > 0 && pt->e[at - 1] >= pt->s[at]) {
    pt->e[at - 1] = max64(pt->e[at - 1], pt->e[at]);
    memmove(pt->s + at, pt->s + at + 1,
            (size_t)(pt->n - at - 1) * sizeof pt->s[0]);
    memmove(pt->e + at, pt->e + at + 1,
            (size_t)(pt->n - at - 1) * sizeof pt->e[0]);
    pt->n--;
  }
}

/* Takes `need` cycles of port time, in the gaps from t0 on (a transfer
 * shares the port with the other pipe's transfers); returns the end. */
static int64_t port_take(Port *pt, int64_t t0, int64_t need) {
  int64_t t = t0;
  while (need > 0) {
    int i = 0;
    while (i < pt->n && pt->e[i] <= t)
      i++;
    if (i < pt->n && pt->s[i] <= t) {
      t = pt->e[i]; /* busy: skip to the interval's end */
      continue;
    }
    int64_t gap_end = i < pt->n ? pt->s[i] : INT64_MAX;
    int64_t use = min64(need, gap_end - t);
    port_insert(pt, i, t, t + use);
    need -= use;
    t += use;
  }
  return t;
}

/* ---- resolving nodes ----------------------------------------------------- */

static int64_t sig_time(const Work *w, int32_t dep) {
  return dep >= 0 ? w->sigs[dep].time : -1;
}

/* The scalar part: issue time. Returns 0 if it must wait. */
static int try_issue(AscTiming *t, BlockSlot *bs, Work *w, Node *n) {
  if (n->issue >= 0)
    return 1;
  int64_t s = w->S;
  if (n->kind == NK_SWAIT) {
    int64_t st = sig_time(w, n->dep);
    if (st < 0)
      return 0;
    s = max64(s, st + cycles_of(t->p.sync_cycles));
  } else if (n->kind == NK_BARRIER_ALL) {
    if (w->pipe_unresolved > 0)
      return 0;
    for (int p = 0; p < ASC_PIPE_COUNT; p++)
      s = max64(s, max64(w->done_at[p], w->free_at[p]));
  }
  int64_t arrive = w->S;
  n->issue_start = s;
  w->S = s + n->scost;
  n->issue = w->S;
  bs->res.busy[ASC_PIPE_S] += n->scost;
  bs->res.instrs[ASC_PIPE_S]++;
  if (n->site >= 0)
    bs->sites[n->site].scalar += n->scost;
  switch ((NodeKind)n->kind) {
  case NK_SCALAR:
    add_record(t, bs, n, ASC_TK_SCALAR, ASC_PIPE_S, n->issue_start, n->issue,
               n->issue, -1);
    n->resolved = 1;
    break;
  case NK_SWAIT:
    /* the stall: from when the scalar unit got here to the release */
    add_record(t, bs, n, ASC_TK_WAIT, ASC_PIPE_S, arrive, n->issue_start,
               n->issue_start, w->sigs[n->dep].flow);
    sig_release(w, n->dep);
    n->resolved = 1;
    break;
  case NK_BARRIER_ALL:
    for (int p = 0; p < ASC_PIPE_COUNT; p++)
      w->free_at[p] = max64(w->free_at[p], n->issue_start);
    add_record(t, bs, n, ASC_TK_BARRIER, ASC_PIPE_S, arrive, n->issue_start,
               n->issue_start, -1);
    n->resolved = 1;
    break;
  case NK_SET:
    if (n->pipe == ASC_PIPE_S) {
      w->sigs[n->sig].time = n->issue_start;
      add_record(t, bs, n, ASC_TK_SET, ASC_PIPE_S, n->issue_start,
                 n->issue_start, n->issue_start, w->sigs[n->sig].flow);
      n->resolved = 1;
      break;
    }
    w->pipe_unresolved++;
    break;
  default:
    w->pipe_unresolved++;
  }
  return 1;
}

/* The pipe part (issued, first unresolved node of its pipe). Returns 0 if
 * it must wait. */
static int try_pipe(AscTiming *t, BlockSlot *bs, Work *w, Node *n) {
  int p = n->pipe;
  switch ((NodeKind)n->kind) {
  case NK_OP: {
    int64_t start = max64(n->issue, w->free_at[p]);
    int64_t end = start + n->cost, complete = end;
    if (n->port > 0 || n->port_l2 > 0 || n->lat > 0) {
      /* the pipe's own channel, and the core's shares of the GM and L2
       * bandwidths, which MTE2 and MTE3 share */
      end = start + n->cost + n->chan;
      if (n->port > 0 && t->shared_port)
        end = max64(end, port_take(&w->hbm, start + n->cost, n->port));
      if (n->port_l2 > 0 && t->shared_l2)
        end = max64(end, port_take(&w->l2port, start + n->cost, n->port_l2));
      complete = end + n->lat;
    }
    w->free_at[p] = end;
    w->done_at[p] = max64(w->done_at[p], complete);
    bs->res.instrs[p]++;
    add_busy(bs, w, p, start, complete);
    add_record(t, bs, n, ASC_TK_OP, (AscPipe)p, start, end, complete, -1);
    if (p == ASC_PIPE_MTE2 || p == ASC_PIPE_MTE3) {
      port_prune(&w->hbm, w);
      port_prune(&w->l2port, w);
    }
    break;
  }
  case NK_WAIT: {
    int64_t st = sig_time(w, n->dep);
    if (st < 0)
      return 0;
    int64_t start = max64(n->issue, w->free_at[p]);
    int64_t end = max64(start, st + cycles_of(t->p.sync_cycles));
    w->free_at[p] = end;
    add_record(t, bs, n, ASC_TK_WAIT, (AscPipe)p, start, end, end,
               w->sigs[n->dep].flow);
    sig_release(w, n->dep);
    if (p == ASC_PIPE_MTE2 || p == ASC_PIPE_MTE3) {
      port_prune(&w->hbm, w);
      port_prune(&w->l2port, w);
    }
    break;
  }
  case NK_SET: {
    /* after every earlier instruction of the pipe has completed; later
     * instructions of the pipe are not held up */
    int64_t at = max64(n->issue, max64(w->free_at[p], w->done_at[p]));
    w->sigs[n->sig].time = at;
    add_record(t, bs, n, ASC_TK_SET, (AscPipe)p, at, at, at,
               w->sigs[n->sig].flow);
    break;
  }
  case NK_BARRIER: {
    int64_t start = max64(n->issue, w->free_at[p]);
    int64_t end = max64(start, w->done_at[p]);
    w->free_at[p] = end;
    add_record(t, bs, n, ASC_TK_BARRIER, (AscPipe)p, start, end, end, -1);
    break;
  }
  default:
    break;
  }
  n->resolved = 1;
  w->pipe_unresolved--;
  return 1;
}

static Node *pend_at(Work *w, int64_t i) {
  return &w->pend[(w->pend_head + i) % w->pend_cap];
}

static int pend_push(Work *w, const Node *n) {
  if (w->pend_n == w->pend_cap) {
    int64_t cap = w->pend_cap ? w->pend_cap * 2 : 64;
    Node *v = malloc((size_t)cap * sizeof *v);
    if (!v)
      return 0;
    for (int64_t i = 0; i < w->pend_n; i++)
      v[i] = *pend_at(w, i);
    free(w->pend);
    w->pend = v;
    w->pend_head = 0;
    w->pend_cap = cap;
  }
  *pend_at(w, w->pend_n) = *n;
  w->pend_n++;
  return 1;
}

/* Resolves pending nodes until nothing more can be: the scalar parts in
 * program order, the pipe parts in program order per pipe. */
static void rescan(AscTiming *t, BlockSlot *bs, Work *w) {
  int progress = 1;
  while (progress && w->pend_n) {
    progress = 0;
    unsigned blocked = 0;
    w->scalar_blocked = 0;
    for (int64_t i = 0; i < w->pend_n; i++) {
      Node *n = pend_at(w, i);
      if (n->resolved)
        continue;
      if (n->issue < 0) {
        if (w->scalar_blocked || !try_issue(t, bs, w, n)) {
          w->scalar_blocked = 1;
          break; /* later nodes are not issued yet either */
        }
        if (n->resolved) {
          progress = 1;
          continue;
        }
      }
      if (blocked & (1u << n->pipe))
        continue;
      if (try_pipe(t, bs, w, n))
        progress = 1;
      else
        blocked |= 1u << n->pipe;
    }
    /* drop the resolved prefix */
    while (w->pend_n && pend_at(w, 0)->resolved) {
      w->pend_head = (w->pend_head + 1) % w->pend_cap;
      w->pend_n--;
      w->pend_base++;
    }
  }
}

/* ---- events to nodes ---------------------------------------------------- */

static QueState *que_state(Work *w, const void *que) {
  for (int i = 0; i < w->n_ques; i++)
    if (w->ques[i].que == que)
      return &w->ques[i];
  if (w->n_ques == MAX_QUEUES)
    return NULL;
  QueState *q = &w->ques[w->n_ques++];
  q->que = que;
  for (int i = 0; i < ASC_MAX_QUE_BUFS; i++)
    q->enq[i] = q->free[i] = -1;
  return q;
}

static int64_t vector_cycles(const AscTimingParams *p, Work *w,
                             const AscInstr *in, const AscEvent *e) {
  int64_t size = (int64_t)asc_dtype_size((AscDType)in->dtype);
  AscCost cost = asc_op_info((AscOpId)in->op)->cost;
  if (cost == ASC_COST_CAST) {
    int64_t s2 = (int64_t)asc_dtype_size((AscDType)in->dtype2);
    size = size > s2 ? size : s2;
  }
  if (size <= 0)
    size = 1;
  int64_t per_repeat = 256 / size > 0 ? 256 / size : 1;
  int64_t repeats = (e->elems + per_repeat - 1) / per_repeat;
  double epc = 0;
  switch (cost) {
  case ASC_COST_TRANSCENDENTAL:
    epc = p->vec_transcendental_epc;
    break;
  case ASC_COST_DIVISION:
    epc = p->vec_division_epc;
    break;
  case ASC_COST_CAST:
    if (size == 8)
      epc = p->vec_cast64_epc;
    break;
  default:
    break;
  }
  double rate = epc > 0 ? (double)per_repeat / epc
                        : 256.0 / p->vec_bytes_per_cycle; /* per repeat */
  double cycles = (double)repeats * rate;
  /* UB bank conflicts (timing_banks.c): a repeat takes the longer of the
   * unit's rate and the banks' */
  if (e->n_vops > 0 && e->vrepeats > 0)
    cycles =
        timing_ub_cycles_memo(&w->banks, e, rate, p->ub_rw_conflict_cycles);
  return cycles_of(p->vec_issue_cycles) + cycles_of(cycles);
}

/* family: matmul. The Matmul calls that post a message to the cube core's
 * server (the devkit's MatmulClient, include/adv_api/matmul/
 * matmul_client.h, PostMessage): Init (and REGIST_MATMUL_OBJ given a
 * tiling), SetOrgShape, SetHF32, SetUserDefInfo, SetSelfDefineData, each
 * Iterate that starts a block, IterateAll, IterateBatch, IterateNBatch,
 * GetTensorC and End; and, when the kernel ends, KfcCommClient's destructor
 * posts SERVICE_QUIT (impl/basic_api/dav_c220/kfc/kfc_comm_client.h;
 * on_block_end). SetTensorA, SetTensorB, SetBias and SetTail fill the next
 * message and post none.
 *
 * The server (impl/adv_api/detail/kfc/kernel_kfc.h, KfcServer::Run) is the
 * cube core's scalar unit: it polls its clients' queues in turn and handles
 * one message at a time (RcvMessage, the call's work, FreeMessage), so a
 * client's message waits for the handling of every client's: the model
 * holds the client's scalar unit for mix_message_cycles x clients a
 * message (kfc_message_cycles), before the call's work. What the call asks
 * of the cube's pipes is costed on them (cube_side), the Matmul's own
 * scalar work on the server (mm_work_cycles). */
static const uint16_t kfc_message_ops[] = {
    ASC_OP_MATMUL_INIT,
    ASC_OP_MATMUL_SET_ORG_SHAPE,
    ASC_OP_MATMUL_SET_HF32,
    ASC_OP_MATMUL_SET_USER_DEF_INFO,
    ASC_OP_MATMUL_SET_SELF_DEFINE_DATA,
    ASC_OP_MATMUL_SET_SELF_DEFINE_DATA_ADDR,
    ASC_OP_MATMUL_ITERATE,
    ASC_OP_MATMUL_ITERATE_ASYNC,
    ASC_OP_MATMUL_ITERATE_ALL,
    ASC_OP_MATMUL_ITERATE_ALL_ASYNC,
    ASC_OP_MATMUL_ITERATE_ALL_LOCAL,
    ASC_OP_MATMUL_ITERATE_BATCH,
    ASC_OP_MATMUL_ITERATE_BATCH_ASYNC,
    ASC_OP_MATMUL_ITERATE_BATCH_LOCAL,
    ASC_OP_MATMUL_ITERATE_N_BATCH,
    ASC_OP_MATMUL_ITERATE_N_BATCH_ASYNC,
    ASC_OP_MATMUL_GET_TENSOR_C_GM,
    ASC_OP_MATMUL_GET_TENSOR_C_LOCAL,
    ASC_OP_MATMUL_GET_TENSOR_C_GM_ASYNC,
    ASC_OP_MATMUL_GET_TENSOR_C_LOCAL_ASYNC,
    ASC_OP_MATMUL_GET_TENSOR_C_BOTH,
    ASC_OP_MATMUL_GET_TENSOR_C_RET,
    ASC_OP_MATMUL_END,
};

/* e: the call's own event; NULL for its steps (it did work). */
static int posts_kfc_message(const AscInstr *in, const AscEvent *e) {
  if (in->op == ASC_OP_MATMUL_REGISTER)
    return in->n_args > 3; /* with a tiling: REGIST_MATMUL_OBJ calls Init */
  for (size_t i = 0; i < sizeof kfc_message_ops / sizeof kfc_message_ops[0];
       i++)
    if (in->op == kfc_message_ops[i])
      /* an Iterate that started no block (the loop's end) posts none */
      return (in->op != ASC_OP_MATMUL_ITERATE &&
              in->op != ASC_OP_MATMUL_ITERATE_ASYNC) ||
             !e || e->elems > 0;
  return 0;
}

/* family: matmul. Work of the cube core that a MIX kernel's vector core
 * does in the model (matmul_block.c): the cube's pipes and its GM -> L1
 * copies. */
static int cube_side(const AscInstr *in, AscPipe pipe) {
  return pipe == ASC_PIPE_M || pipe == ASC_PIPE_MTE1 || pipe == ASC_PIPE_FIX ||
         in->op == ASC_OP_DATA_COPY_ND2NZ;
}

static int64_t access_bytes(const AscEvent *e) {
  int64_t b = 0;
  for (int i = 0; i < e->n_acc; i++)
    b += e->acc[i].hi - e->acc[i].lo;
  return b;
}

/* family: matmul. The scalar work of the devkit's Matmul implementation
 * (impl/adv_api/detail/matmul/) that comes before event e: e->mm_work cube
 * instructions' worth (matmul_block.c: each instruction it issues, its
 * parameters, queue operations and loop steps; matmul.c: the buffers Init
 * sets up), mm_instr_cycles each. A MIX cube core's server does it for
 * each of its clients in turn, as it does their cube work (cube_side). */
static double mm_work_cycles(const AscTimingParams *p, const Work *w,
                             const AscEvent *e) {
  if (e->mm_work <= 0 && e->mm_block <= 0)
    return 0;
  return ((double)e->mm_work * p->mm_instr_cycles +
          (double)e->mm_block * p->mm_block_cycles) *
         (w->clients > 0 ? w->clients : 1);
}

/* The scalar cost c plus d, kept within the node's int32 field. */
static int32_t scost_plus(int32_t c, double d) {
  double v = (double)c + d;
  return (int32_t)(v < 2e9 ? v : 2e9);
}

/* family: matmul. C's way into a UB tensor through GM, as a MIX kernel's
 * GetTensorC takes it on arch 2201 (include/adv_api/matmul/
 * matmul_client.h): the cube core's Fixpipe writes C to GM (AscMmUb FIX:
 * its bytes into the L2), and after the server's event the vector core
 * copies them in on its MTE2 (CopyToUB: a DataCopy GM -> UB, the bytes
 * the L2 just took: hits) and makes V wait for it (SetFlag / WaitFlag
 * MTE2_V, on_event). The simulator writes L0C -> UB at once, so its
 * results and what the sanitizer sees stay as they are: this is timing
 * only. */
static int via_gm(const Work *w, const AscEvent *e) {
  return w->clients > 0 && e->mm_ub != ASC_MM_UB_NONE;
}

/* family: matmul. The cycles a MIX client waits while the server takes
 * the message of the call event e belongs to, and first the other
 * clients' (their requests arrive together: one server for all). The
 * server receives a message before it does the call's work, and the
 * call's steps (its cube instructions, matmul_block.c) come before its own
 * event: the message is charged with the first of them, once a call. */
static double kfc_message_cycles(const AscTimingParams *p, Work *w,
                                 const AscEvent *e) {
  if (w->clients <= 0 || !e->in)
    return 0;
  const AscInstr *call = sim_step_parent(e->in);
  if (call != e->in) { /* a step of the call */
    if (w->msg_charged || !posts_kfc_message(call, NULL))
      return 0;
    w->msg_charged = 1;
    return w->clients * p->mix_message_cycles;
  }
  int charged = w->msg_charged; /* the call's own event ends it */
  w->msg_charged = 0;
  if (charged || e->kind != ASC_EV_OP || !posts_kfc_message(call, e))
    return 0;
  return w->clients * p->mix_message_cycles;
}

/* Fills the node of event e (make_node); returns 0 on out-of-memory. */
static int make_node_body(AscTiming *t, Work *w, const AscEvent *e, Node *n) {
  const AscTimingParams *p = &t->p;
  const AscInstr *in = e->in;
  memset(n, 0, sizeof *n);
  n->issue = -1;
  n->dep = DEP_NONE;
  n->sig = -1;
  n->in = in;
  n->site = site_of(t, w, in);
  n->kind = NK_SCALAR;
  n->pipe = ASC_PIPE_S;
  n->scost = (int32_t)cycles_of(p->scalar_cycles);
  switch (e->kind) {
  case ASC_EV_OP:
    if (via_gm(w, e) && e->mm_ub == ASC_MM_UB_COPY) {
      n->kind = NK_OP;
      n->pipe = ASC_PIPE_MTE2;
      n->scost = (int32_t)cycles_of(p->issue_cycles);
      n->bytes = e->bytes;
      n->path = ASC_PATH_GM_UB;
      n->cost = cycles_of(p->dma_issue_cycles);
      n->chan =
          cycles_of(p->dma_burst_cycles + (double)e->bytes / p->core_l2_bpc);
      n->port_l2 = cycles_of((double)e->bytes / t->l2_rate);
      n->lat = cycles_of(p->l2_read_latency); /* L2 hits */
      return 1;
    }
    if (e->pipe == ASC_PIPE_S) {
      switch (asc_op_info((AscOpId)in->op)->cost) {
      case ASC_COST_UB_READ:
        n->scost = (int32_t)cycles_of(p->scalar_ub_cycles);
        n->path = ASC_PATH_UB_S;
        break;
      case ASC_COST_UB_WRITE:
        n->scost = (int32_t)cycles_of(p->scalar_ub_cycles);
        n->path = ASC_PATH_S_UB;
        break;
      case ASC_COST_GM_READ:
        n->scost = (int32_t)cycles_of(p->scalar_gm_cycles);
        n->path = ASC_PATH_GM_S;
        break;
      case ASC_COST_GM_WRITE:
        n->scost = (int32_t)cycles_of(p->scalar_gm_cycles);
        n->path = ASC_PATH_S_GM;
        break;
      case ASC_COST_CUBE: { /* family: matmul: a synchronous Matmul call
                             * waits for the cube work it asked for */
        double c = (double)cycles_of(p->issue_cycles) +
                   (double)e->elems / p->cube_fractals_per_cycle;
        n->scost = (int32_t)(c < 2e9 ? c : 2e9);
        break;
      }
      default:
        break;
      }
      if (n->path)
        n->bytes = access_bytes(e);
      if (w->clients > 0 && in->op == ASC_OP_MATMUL_REGISTER) {
        w->kfc_in = in; /* its client will post a Quit at the end */
        w->kfc_site = n->site;
      }
      return 1;
    }
    n->kind = NK_OP;
    n->pipe = (uint8_t)e->pipe;
    n->scost = (int32_t)cycles_of(p->issue_cycles);
    n->bytes = e->bytes;
    AscCost cost = asc_op_info((AscOpId)in->op)->cost;
    if (cost == ASC_COST_DMA_IN || cost == ASC_COST_DMA_OUT) {
      int read = cost == ASC_COST_DMA_IN;
      TimingDma d;
      if (!timing_dma_cost(&w->l2, e, read, p, &d))
        return 0;
      n->path = read ? ASC_PATH_GM_UB : ASC_PATH_UB_GM;
      n->cost = cycles_of(p->dma_issue_cycles);
      n->port = cycles_of(d.hbm_bytes / t->port_rate);
      n->port_l2 = cycles_of(d.l2_bytes / t->l2_rate);
      n->chan = cycles_of(d.chan_cycles);
      /* a read the L2 serves whole comes back sooner than one from HBM */
      n->lat =
          cycles_of(!read                                ? p->gm_write_latency
                    : d.hbm_bytes <= 0 && d.l2_bytes > 0 ? p->l2_read_latency
                                                         : p->gm_read_latency);
      if (via_gm(w, e)) /* family: matmul: C's Fixpipe writes GM */
        n->port_l2 = cycles_of((double)e->bytes / t->l2_rate);
    } else if (cost == ASC_COST_CUBE) { /* family: cube */
      n->cost = cycles_of(p->cube_mmad_issue_cycles) +
                cycles_of((double)e->elems / p->cube_fractals_per_cycle);
    } else if (cost == ASC_COST_CUBE_LOAD) {
      n->cost = cycles_of(p->cube_load_issue_cycles) +
                cycles_of((double)e->bytes / p->cube_load_bytes_per_cycle);
    } else if (cost == ASC_COST_LOCAL_COPY) {
      n->path = ASC_PATH_UB_UB;
      n->cost = cycles_of(p->vec_issue_cycles) +
                cycles_of((double)e->bytes / p->vec_bytes_per_cycle);
    } else if (e->pipe == ASC_PIPE_V) {
      n->cost = vector_cycles(p, w, in, e);
    } else {
      n->cost = cycles_of(p->vec_issue_cycles) +
                cycles_of((double)e->bytes / p->vec_bytes_per_cycle);
    }
    /* family: matmul: one cube core serves the vector cores of its AI Core
     * in turn: its pipes and its channel do each one's work in a share of
     * their time */
    if (w->clients > 1 && cube_side(in, e->pipe)) {
      n->cost *= w->clients;
      n->chan *= w->clients;
    }
    return 1;
  case ASC_EV_SET_FLAG:
  case ASC_EV_WAIT_FLAG: {
    n->scost = (int32_t)cycles_of(p->issue_cycles);
    int key = (int)(e->event * ASC_MAX_EVENT_IDS + e->id);
    if (e->event < 0 || e->event >= ASC_MAX_EVENTS || e->id < 0 ||
        e->id >= ASC_MAX_EVENT_IDS)
      return 1; /* the simulator rejects these before */
    if (e->kind == ASC_EV_SET_FLAG) {
      n->kind = NK_SET;
      n->pipe = (uint8_t)e->src;
      n->sig = sig_new(w);
      if (n->sig < 0)
        return 0;
      if (w->held[key].n) {
        /* a wait issued before this set: hand it the signal */
        int64_t seq = ring_pop(&w->held[key]);
        pend_at(w, seq - w->pend_base)->dep = n->sig;
        w->matched_held = 1;
      } else if (!ring_push(&w->sets[key], n->sig)) {
        return 0;
      }
    } else {
      n->kind = e->dst == ASC_PIPE_S ? NK_SWAIT : NK_WAIT;
      n->pipe = (uint8_t)e->dst;
      if (w->sets[key].n) {
        n->dep = (int32_t)ring_pop(&w->sets[key]);
      } else {
        n->dep = DEP_UNMATCHED;
        /* its place in the pending list: it cannot resolve before the
         * set arrives, so it will be pending */
        if (!ring_push(&w->held[key], w->pend_base + w->pend_n))
          return 0;
      }
    }
    return 1;
  }
  case ASC_EV_BARRIER:
    n->scost = (int32_t)cycles_of(p->issue_cycles);
    if (e->src >= ASC_PIPE_COUNT) {
      n->kind = NK_BARRIER_ALL;
    } else if (e->src != ASC_PIPE_S) {
      n->kind = NK_BARRIER;
      n->pipe = (uint8_t)e->src;
    }
    return 1;
  case ASC_EV_QUE: {
    QueState *q = que_state(w, e->que);
    if (!q || e->buffer < 0 || e->buffer >= ASC_MAX_QUE_BUFS ||
        e->producer == e->consumer)
      return 1; /* VECCALC: both ends on one pipe, ordered already */
    int32_t *slot;
    switch (e->que_op) {
    case ASC_QUE_ENQUE:
    case ASC_QUE_FREE:
      slot =
          e->que_op == ASC_QUE_ENQUE ? &q->enq[e->buffer] : &q->free[e->buffer];
      /* an earlier signal never waited for stays allocated until the
       * block ends (its set may still be pending) */
      n->kind = NK_SET;
      n->pipe =
          (uint8_t)(e->que_op == ASC_QUE_ENQUE ? e->producer : e->consumer);
      n->sig = sig_new(w);
      if (n->sig < 0)
        return 0;
      *slot = n->sig;
      break;
    case ASC_QUE_DEQUE:
    case ASC_QUE_ALLOC:
      slot =
          e->que_op == ASC_QUE_DEQUE ? &q->enq[e->buffer] : &q->free[e->buffer];
      if (*slot < 0)
        break; /* a fresh buffer: nothing to wait for */
      n->pipe =
          (uint8_t)(e->que_op == ASC_QUE_DEQUE ? e->consumer : e->producer);
      n->kind = n->pipe == ASC_PIPE_S ? NK_SWAIT : NK_WAIT;
      n->dep = *slot;
      *slot = -1;
      break;
    }
    return 1;
  }
  }
  return 1;
}

/* Fills the node of event e: its instruction, then the scalar work before
 * it, a MIX client's wait for its server and the Matmul implementation's
 * own; returns 0 on out-of-memory. */
static int make_node(AscTiming *t, Work *w, const AscEvent *e, Node *n) {
  if (!make_node_body(t, w, e, n))
    return 0;
  n->scost = scost_plus(n->scost, kfc_message_cycles(&t->p, w, e) +
                                      mm_work_cycles(&t->p, w, e));
  return 1;
}

static void work_free(Work *w) {
  if (!w)
    return;
  timing_l2_free(&w->l2);
  free(w->pend);
  free(w->sigs);
  for (int i = 0; i < ASC_MAX_EVENTS * ASC_MAX_EVENT_IDS; i++) {
    free(w->sets[i].v);
    free(w->held[i].v);
  }
  free(w);
}

/* ---- the observer -------------------------------------------------------- */

static void on_block_begin(void *self, AscBlockState *b) {
  AscTiming *t = self;
  if (b->block_idx < 0 || b->block_idx >= t->block_num)
    return; /* family: cores: made for fewer blocks; on_event fails */
  BlockSlot *bs = &t->blocks[b->block_idx];
  work_free(bs->work);
  bs->work = calloc(1, sizeof *bs->work);
  free(bs->sites);
  bs->sites = calloc((size_t)t->n_sites + 1, sizeof *bs->sites);
  if (bs->work) {
    bs->work->free_sig = -1;
    bs->work->last_func = 0;
    bs->work->kfc_site = -1;
    bs->work->S = asc_timing_block_start(t);
    timing_l2_init(&bs->work->l2, t->l2_lines, t->line_shift);
    /* family: matmul: a MIX kernel's vector core is a client of its AI
     * Core's cube core, which serves core_per_group - 1 of them */
    if (b->has_core && !b->core_is_aic && b->core_per_group > 1)
      bs->work->clients = b->core_per_group - 1;
  }
  if (!bs->sites) {
    work_free(bs->work);
    bs->work = NULL;
  }
}

static AscStatus fail(AscBlockState *b, const AscInstr *in, const char *msg) {
  AscExec x = {b, NULL};
  return sim_fail(&x, in, "%s", msg);
}

/* An empty node of the instruction (and site) of `like`: a scalar no-op. */
static void blank_node(Node *n, const Node *like) {
  memset(n, 0, sizeof *n);
  n->issue = -1;
  n->dep = DEP_NONE;
  n->sig = -1;
  n->in = like->in;
  n->site = like->site;
  n->kind = NK_SCALAR;
  n->pipe = ASC_PIPE_S;
}

/* Resolves node n now if everything before it is, else queues it; NULL, or
 * why the block cannot go on. */
static const char *submit(AscTiming *t, BlockSlot *bs, Work *w, Node *n) {
  if (n->path)
    bs->res.bytes[n->path] += n->bytes;
  if (w->pend_n == 0) {
    /* the common case: everything before is resolved */
    if (try_issue(t, bs, w, n) && (n->resolved || try_pipe(t, bs, w, n)))
      return NULL;
  }
  if (!pend_push(w, n))
    return "timing model: out of memory";
  if (w->pend_n > ((int64_t)1 << 22))
    return "timing model: more than 4M instructions wait for a set_flag "
           "issued later; cannot follow this kernel";
  /* everything pending waits, directly or not, for a wait issued before
   * its set: only such a set's arrival can let it go on (the block's end
   * resolves the rest) */
  if (w->matched_held) {
    w->matched_held = 0;
    rescan(t, bs, w);
  }
  return NULL;
}

static AscStatus on_event(void *self, AscBlockState *b, const AscEvent *e) {
  AscTiming *t = self;
  if (b->block_idx < 0 || b->block_idx >= t->block_num) /* family: cores */
    return fail(b, e->in,
                "internal: the timing model was made for fewer blocks "
                "than the launch runs (asc_kernel_launch_blocks)");
  BlockSlot *bs = &t->blocks[b->block_idx];
  Work *w = bs->work;
  if (!w)
    return fail(b, e->in, "timing model: out of memory");
  switch (e->in ? e->in->op : -1) { /* system family: released by others */
  case ASC_OP_SYNC_ALL:
  case ASC_OP_SYNC_ALL_SOFT:
  case ASC_OP_IB_SET:
  case ASC_OP_IB_WAIT:
  case ASC_OP_NOTIFY_NEXT_BLOCK:
  case ASC_OP_WAIT_PRE_BLOCK:
    w->S = max64(w->S, e->xs_release);
    break;
  default:
    break;
  }
  Node n;
  if (!make_node(t, w, e, &n))
    return fail(b, e->in, "timing model: out of memory");
  const char *err = submit(t, bs, w, &n);
  /* family: matmul: after the copy of C in from GM (via_gm), V waits for
   * it: the client's SetFlag / WaitFlag MTE2_V (CopyToUB) */
  if (!err && n.kind == NK_OP && via_gm(w, e) && e->mm_ub == ASC_MM_UB_COPY) {
    Node set, wait;
    blank_node(&set, &n);
    set.kind = NK_SET;
    set.pipe = ASC_PIPE_MTE2;
    set.scost = (int32_t)cycles_of(t->p.issue_cycles);
    set.sig = sig_new(w);
    if (set.sig < 0)
      return fail(b, e->in, "timing model: out of memory");
    wait = set;
    wait.kind = NK_WAIT;
    wait.pipe = ASC_PIPE_V;
    wait.dep = set.sig;
    wait.sig = -1;
    err = submit(t, bs, w, &set);
    if (!err)
      err = submit(t, bs, w, &wait);
  }
  if (err)
    return fail(b, e->in, err);
  if (n.site >= 0)
    bs->sites[n.site].count++;
  return ASC_OK;
}

static AscStatus on_block_end(void *self, AscBlockState *b) {
  AscTiming *t = self;
  if (b->block_idx < 0 || b->block_idx >= t->block_num) /* family: cores */
    return fail(b, NULL,
                "internal: the timing model was made for fewer blocks "
                "than the launch runs (asc_kernel_launch_blocks)");
  BlockSlot *bs = &t->blocks[b->block_idx];
  Work *w = bs->work;
  if (!w)
    return fail(b, NULL, "timing model: out of memory");
  rescan(t, bs, w);
  if (w->pend_n) {
    /* something waits for a flag that can never be set in time: the
     * scalar unit is blocked on a pipe that waits on a later set */
    const Node *n = NULL;
    for (int64_t i = 0; i < w->pend_n && !n; i++)
      if (!pend_at(w, i)->resolved)
        n = pend_at(w, i);
    return fail(b, n ? n->in : NULL,
                "deadlock (found by the timing model): this instruction "
                "waits for a flag whose set_flag the scalar unit can only "
                "issue after it");
  }
  if (w->kfc_in) {
    /* family: matmul: the Matmul client's Quit (KfcCommClient's
     * destructor): the AI Core ends when its server has handled every
     * client's; shown at the register_matmul that made the client */
    Node q, like;
    memset(&like, 0, sizeof like);
    like.in = w->kfc_in;
    like.site = w->kfc_site;
    blank_node(&q, &like);
    double c = w->clients * t->p.mix_message_cycles;
    q.scost = (int32_t)(c < 2e9 ? c : 2e9); /* as a message in make_node */
    try_issue(t, bs, w, &q);
  }
  int64_t end = w->S;
  for (int p = 0; p < ASC_PIPE_COUNT; p++)
    end = max64(end, max64(w->free_at[p], w->done_at[p]));
  bs->res.cycles = end;
  bs->res.records = bs->recs;
  bs->res.n_records = bs->n_recs;
  /* merge the block's site costs */
  pthread_mutex_lock(&t->lock);
  for (int i = 0; i < t->n_sites; i++) {
    t->sites[i].count += bs->sites[i].count;
    t->sites[i].scalar += bs->sites[i].scalar;
    t->sites[i].busy += bs->sites[i].busy;
    t->sites[i].stall += bs->sites[i].stall;
  }
  pthread_mutex_unlock(&t->lock);
  free(bs->sites);
  bs->sites = NULL;
  work_free(w);
  bs->work = NULL;
  return ASC_OK;
}

/* ---- the timing object -------------------------------------------------- */

AscTiming *asc_timing_new(const AscTimingParams *params, const AscKernel *k,
                          const AscPlatform *platform, int block_num,
                          int record) {
  if (block_num < 1)
    return NULL;
  AscTiming *t = calloc(1, sizeof *t);
  if (!t)
    return NULL;
  t->p = *params;
  t->k = k;
  t->platform = platform;
  t->block_num = block_num;
  t->record = record;
  int phys = platform->vector_cores > 0 ? platform->vector_cores : 1;
  /* family: cores: a MIX launch's blocks are cube and vector cores, an
   * AIC_ONLY one's cube cores (asc.KernelType 1, 3, 5) */
  int kt = asc_kernel_type_of(k), per = asc_cores_per_group(kt);
  if (per > 1 || kt == 1 || kt == 3 || kt == 5)
    phys = (platform->cube_cores > 0 ? platform->cube_cores : 1) * per;
  t->cores = block_num < phys ? block_num : phys;
  t->units = per > 1 ? (t->cores + per - 1) / per : t->cores;
  double chip = t->p.gm_bandwidth_gbps * t->p.gm_efficiency / t->p.clock_ghz;
  t->port_rate = chip / t->cores;
  if (!(t->port_rate > 0))
    t->port_rate = 1;
  /* below two channels' worth, a read and a write at once compete */
  t->shared_port = t->port_rate < 2 * t->p.core_gm_bpc;
  /* the L2: its bandwidth and capacity shared alike by the cores in use */
  t->l2_rate = t->p.l2_bandwidth_gbps / t->p.clock_ghz / t->cores;
  if (!(t->l2_rate > 0))
    t->l2_rate = 1;
  t->shared_l2 = t->l2_rate < 2 * t->p.core_l2_bpc;
  t->line_shift = 5;
  while (t->line_shift < 20 &&
         ((int64_t)1 << t->line_shift) < t->p.l2_line_bytes)
    t->line_shift++;
  double lines = t->p.l2_size_mb * 1048576.0 /
                 (double)((int64_t)1 << t->line_shift) / t->cores;
  t->l2_lines = lines >= 1 ? (int64_t)(lines < 1e9 ? lines : 1e9) : 0;
  pthread_mutex_init(&t->lock, NULL);
  t->func_base = calloc((size_t)(k->n_funcs + 1), sizeof *t->func_base);
  t->blocks = calloc((size_t)block_num, sizeof *t->blocks);
  if (!t->func_base || !t->blocks) {
    asc_timing_free(t);
    return NULL;
  }
  for (int f = 0; f < k->n_funcs; f++)
    t->func_base[f + 1] = t->func_base[f] + k->funcs[f].n_code;
  t->n_sites = (int)t->func_base[k->n_funcs];
  t->site_instr = calloc((size_t)t->n_sites + 1, sizeof *t->site_instr);
  t->sites = calloc((size_t)t->n_sites + 1, sizeof *t->sites);
  if (!t->site_instr || !t->sites) {
    asc_timing_free(t);
    return NULL;
  }
  for (int f = 0; f < k->n_funcs; f++)
    for (int i = 0; i < k->funcs[f].n_code; i++)
      t->site_instr[t->func_base[f] + i] = &k->funcs[f].code[i];
  double total = t->p.max_records > 0 ? t->p.max_records : 0;
  int64_t per_block = (int64_t)(total / block_num);
  if (per_block < 1024)
    per_block = 1024;
  for (int i = 0; i < block_num; i++)
    t->blocks[i].max_recs = per_block;
  return t;
}

void asc_timing_free(AscTiming *t) {
  if (!t)
    return;
  if (t->blocks)
    for (int i = 0; i < t->block_num; i++) {
      free(t->blocks[i].recs);
      free(t->blocks[i].sites);
      work_free(t->blocks[i].work);
    }
  free(t->blocks);
  free(t->func_base);
  free(t->site_instr);
  free(t->sites);
  pthread_mutex_destroy(&t->lock);
  free(t);
}

/* system family: the cycle the block's scalar unit issues its next
 * instruction at (GetSystemCycle). */
static int64_t timing_now(void *self, AscBlockState *b, int all_pipes) {
  AscTiming *t = self;
  if (!b || b->block_idx < 0 || b->block_idx >= t->block_num)
    return 0;
  Work *w = t->blocks[b->block_idx].work;
  if (!w)
    return 0;
  int64_t s = w->S;
  for (int p = 0; all_pipes && p < ASC_PIPE_COUNT; p++)
    s = max64(s, max64(w->done_at[p], w->free_at[p]));
  return s;
}

/* system family: the clock, for converting cycles to the system counter */
double asc_timing_clock_ghz(const AscTiming *t) { return t->p.clock_ghz; }

AscObserver asc_timing_observer(AscTiming *t) {
  AscObserver o;
  o.self = t;
  o.block_begin = on_block_begin;
  o.event = on_event;
  o.skip_quiet = 0; /* every instruction takes time */
  o.block_end = on_block_end;
  o.now = timing_now;
  return o;
}

const AscTimingBlock *asc_timing_block(const AscTiming *t, int block) {
  if (block < 0 || block >= t->block_num)
    return NULL;
  return &t->blocks[block].res;
}

int asc_timing_cores(const AscTiming *t) { return t->cores; }

int64_t asc_timing_launch_overhead(const AscTiming *t) {
  double us = t->p.launch_base_us + t->p.launch_per_core_us * (t->cores - 1);
  return cycles_of(us * t->p.clock_ghz * 1000.0);
}

int64_t asc_timing_duration(const AscTiming *t) {
  int64_t slowest = 0;
  for (int c = 0; c < t->cores; c++) {
    int64_t sum = 0;
    for (int b = c; b < t->block_num; b += t->cores)
      sum += t->blocks[b].res.cycles;
    slowest = max64(slowest, sum);
  }
  return slowest + asc_timing_launch_overhead(t);
}

double asc_timing_port_rate(const AscTiming *t) { return t->port_rate; }

/* The head overhead grows with the cores a launch starts (devkit guide,
 * 头尾开销优化/设置合适的核数和算子Kernel类型); a MIX launch starts AI
 * Cores, each a cube core and its vector cores together ("按照AIV和AIC组合
 * 启动", Matmul高阶API使能纯Cube模式), whose start-ups overlap. */
int64_t asc_timing_block_start(const AscTiming *t) {
  return cycles_of(t->p.block_start_per_core_cycles * t->units);
}

int asc_timing_n_sites(const AscTiming *t) { return t->n_sites; }

const AscInstr *asc_timing_site(const AscTiming *t, int site) {
  if (site < 0 || site >= t->n_sites)
    return NULL;
  return t->site_instr[site];
}

const AscTimingSiteStat *asc_timing_site_stats(const AscTiming *t) {
  return t->sites;
}

const char *asc_timing_site_info(const AscTiming *t, int site, AscLoc *loc,
                                 AscPipe *pipe, const char **detail) {
  const AscInstr *in = asc_timing_site(t, site);
  memset(loc, 0, sizeof *loc);
  *pipe = ASC_PIPE_NONE;
  *detail = "";
  if (!in || in->op >= ASC_OP_COUNT)
    return NULL;
  const char *d = NULL;
  if (in->op == ASC_OP_SET_FLAG || in->op == ASC_OP_WAIT_FLAG)
    d = asc_enum_value_name(ASC_ENUM_HARDEVENT, in->imm2);
  else if (in->op == ASC_OP_PIPE_BARRIER)
    d = asc_enum_value_name(ASC_ENUM_PIPEID, in->imm2);
  if (d)
    *detail = d;
  if (in->src)
    *loc = in->src->loc;
  const AscOpInfo *info = asc_op_info((AscOpId)in->op);
  *pipe = info->pipe;
  return info->name;
}

const AscTimingParams *asc_timing_params(const AscTiming *t) { return &t->p; }

/* ---- family debug: PrintTimeStamp ---------------------------------------- */
int64_t asc_timing_block_cycle(const AscBlockState *b, int64_t *entry) {
  for (int i = 0; i < b->n_observers; i++) {
    if (b->observers[i].event != on_event)
      continue;
    const AscTiming *t = b->observers[i].self;
    if (b->block_idx < 0 || b->block_idx >= t->block_num)
      return -1;
    const Work *w = t->blocks[b->block_idx].work;
    *entry = asc_timing_block_start(t);
    return w && w->pend_n == 0 ? w->S : -1;
  }
  return -1;
}
