/* The system family's sub-operations (the op table's `sub` column) and the
 * launch's cross-block synchronisation state (block_sync.c). */
#ifndef ASC_SIM_SYSTEM_H
#define ASC_SIM_SYSTEM_H

#include <stdint.h>

/* System variables (sim_system_var). */
enum {
  ASC_SYSVAR_ICACHE_STATUS,
  ASC_SYSVAR_ARCH_VERSION,
  ASC_SYSVAR_DATA_BLOCK_SIZE,
  ASC_SYSVAR_PROGRAM_COUNTER,
  ASC_SYSVAR_SUB_BLOCK_IDX,
  ASC_SYSVAR_SUB_BLOCK_NUM,
  ASC_SYSVAR_SYSTEM_CYCLE,
  ASC_SYSVAR_TASK_RATIO,
};

/* Scalar bit utilities (sim_scalar_bits). */
enum { ASC_SBIT_SFF, ASC_SBIT_COUNT, ASC_SBIT_CLZ, ASC_SBIT_SIGN };

/* The architecture version GetArchVersion reports for the Ascend910B
 * (dav-c220, __NPU_ARCH__ 2201): bits 32..43 of the arch register. */
enum { ASC_ARCH_VERSION_C220 = 0x220 };

/* The scalar bit functions, exact on 64 bits (also used by the tests). */
int64_t asc_sbit_sff(uint64_t v, int bit);
int64_t asc_sbit_count(uint64_t v, int bit);
int64_t asc_sbit_clz(uint64_t v);
int64_t asc_sbit_same_as_sign(int64_t v);

typedef struct AscXSync AscXSync;
struct AscKernel;
/* Cross-block synchronisation of one launch (block_sync.c). A launch whose
 * kernel uses sync_all / ib_set / ib_wait / notify_next_block /
 * wait_pre_block creates one and runs every block on its own thread. */
int asc_kernel_syncs_blocks(const struct AscKernel *k);
struct AscXSync *asc_xsync_new(int core_num, int all_started);
void asc_xsync_free(struct AscXSync *xs);
/* A block is done (finished or failed): waits it could have released can
 * no longer be released; `failed` marks it as failed first. */
void asc_xsync_block_done(struct AscXSync *xs, int block, int failed);
/* 1 when block's error is only a consequence of another block's failure. */
int asc_xsync_secondary(const struct AscXSync *xs, int block);
/* Block's vector clock (core_num entries; the sanitizer copies it). */
const int32_t *asc_xsync_vc(const struct AscXSync *xs, int block);
/* Some block could not get a thread: its waits fail instead of hanging. */
void asc_xsync_not_all_started(struct AscXSync *xs);

#endif
