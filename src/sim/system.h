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

/* family: cores: the block-sync machinery the cross-core flags share
 * (block_sync.c; cores.c). All but lock/unlock with the lock held. */
struct AscBlockState;
struct AscExec;
struct AscInstr;
void asc_xsync_lock(struct AscXSync *xs);
void asc_xsync_unlock(struct AscXSync *xs);
/* waits until cond(ctx); a deadlock is a KernelError at in */
int asc_xsync_wait(struct AscExec *x, const struct AscInstr *in,
                   int (*cond)(void *ctx), void *ctx, const char *what);
void asc_xsync_changed(struct AscXSync *xs);
/* the cycle the block arrives at the op, all its pipes done */
int64_t asc_xsync_arrival(struct AscBlockState *b);
/* happens-before through the key (buf, off): release the block's clock
 * into it, acquire what was released; then a new epoch of the block */
void asc_xsync_release(struct AscXSync *xs, struct AscBlockState *b,
                       int32_t buf, int64_t off, int64_t t);
int64_t asc_xsync_acquire(struct AscXSync *xs, struct AscBlockState *b,
                          int32_t buf, int64_t off);
void asc_xsync_next_epoch(struct AscBlockState *b);
void asc_xsync_released_at(struct AscBlockState *b, int64_t t);

/* family: cores (cores.c): kernel types, the cores of a launch */
typedef struct AscCoreFlags AscCoreFlags;
/* the kernel's asc.KernelType value (its kernel_type attribute; AIV_ONLY) */
int asc_kernel_type_of(const struct AscKernel *k);
/* blocks per AI Core of a kernel type: 3 for MIX_AIC_1_2, 2 for
 * MIX_AIC_1_1, else 1 */
int asc_cores_per_group(int kernel_type);
/* 1 when the kernel uses cross-core flags */
int asc_kernel_uses_core_flags(const struct AscKernel *k);
/* the role of block `unit` of a launch of core_num AI Cores */
void asc_cores_assign(struct AscBlockState *b, int kernel_type, int unit,
                      int core_num);
AscCoreFlags *asc_core_flags_new(int units, int per_group);
/* the core that runs each instruction (ASC_CORE_AIV / ASC_CORE_AIC, 0:
 * both), one array per function of the kernel; NULL for kernels of vector
 * cores only (or out of memory), where every instruction runs */
enum { ASC_CORE_AIV = 1, ASC_CORE_AIC = 2 };
uint8_t **asc_cores_table_new(const struct AscKernel *k);
void asc_cores_table_free(uint8_t **t, const struct AscKernel *k);
void asc_core_flags_free(AscCoreFlags *f);

#endif
