/* Hardware parameters, one row per Platform.
 *
 * Sources: the Ascend C devkit documentation (mirror-cann/asc-devkit,
 * docs/zh/api: the Unified Buffer of Atlas A2 training products (910B) is
 * 192 KiB per AI Vector core, L1 512 KiB per AI Cube core; 8 event ids per
 * HardEvent). Core counts follow upstream pyasc's platform table and
 * vendor specifications of the 910B parts (AIC:AIV = 1:2). L0C and the
 * reserved end of L1: the devkit's constants for NPU arch 2201, the arch of
 * every part here (impl/basic_api/utils/kernel_utils_constants.h:
 * TOTAL_L0C_SIZE = 128 KiB; TOTAL_L1_SIZE = 512 KiB less
 * KFC_L1_RESERVER_SIZE, 128 bytes). The cube core's other memories
 * (family: cube, src/sim/cube.c) are the same on every part: L0A and L0B
 * 64 KiB (TOTAL_L0A_SIZE, TOTAL_L0B_SIZE of that header), the bias table
 * 1 KiB (BIAS_TABLE_SIZE of the Matmul's C2 buffer outside arch 3510,
 * impl/adv_api/detail/matmul/resource/bias_buffer/c2_buffer/c2_buffer.h;
 * BT_SIZE of the conv tilings), the fixpipe buffer 2 KiB (FB_SIZE of
 * impl/adv_api/tiling/conv/conv3d_tiling_util.h).
 *
 * The reserved parts of UB and L1 on arch 2201 (docs/zh/guide/编程指南/
 * 高级编程/硬件实现/架构规格/NPU架构版本2201.md, and include/utils/base/
 * sys_constants.h): the framework and the compiler keep 256 bytes of each
 * (ASC_UB_SIZE = 192 KiB - 256, ASC_L1_SIZE = 512 KiB - 256: the most a
 * kernel may use; the framework's own TOTAL_L1_SIZE lies within), and
 * Ascend C keeps 8 KiB more of the UB for the APIs of 静态Tensor编程.md's
 * table 5 (their temporaries at TMP_UB_OFFSET = 184 KiB,
 * kernel_utils_constants.h), usable by the kernel only when it is compiled
 * with --cce-disable-asc-reserved-ubuf. The high-level APIs' stack buffer
 * ends sizeof(KfcMsg) = 128 bytes before the UB's end (GetEndAddress of
 * impl/basic_api/kernel_pop_stack_buffer.h; KfcMsg of impl/basic_api/
 * dav_c220/kfc/kfc_comm.h). Event ids: SetFlag-WaitFlag(ISASI).md keeps
 * id 6 for the system and id 7 for the TPipe's automatic sync, leaving
 * 0-5 to the kernel.
 *
 * NPU arch 3510 (C310: the Ascend950 parts and the Ascend910_95 names
 * PyAsc2 spells for them; docs/zh/guide/编程指南/高级编程/硬件实现/架构规格/
 * NPU架构版本3510.md, "各存储单元的参数规格"): UB 256 KiB of which the
 * kernel gets ASC_UB_SIZE = 248 KiB by default, the compiler keeping 6 KiB
 * for the SIMD VF stack (freed by --cce-disable-vf-stack-reserved-ubuf;
 * here ub_asc_reserved) and Ascend C 2 KiB for its APIs' temporaries
 * (freed by --cce-disable-asc-reserved-ubuf; ub_api_reserved); the
 * high-level APIs' stack buffer ends at TMP_UB_OFFSET = 248 KiB
 * (GetEndAddress of kernel_pop_stack_buffer.h, arch 3510), so 8 KiB at the
 * UB's end (ub_msg_size). L1 512 KiB with nothing kept (ASC_L1_SIZE and
 * TOTAL_L1_SIZE both 512 KiB: include/utils/base/sys_constants.h,
 * kernel_utils_constants.h), L0C 256 KiB (TOTAL_L0C_SIZE, ASC_L0C_SIZE).
 * L0A and L0B are 64 KiB as on 2201; the bias table and the fixpipe buffer
 * are 4 KiB there (ASC_BT_SIZE; the spec page), which the cube model's
 * 2201 constants are not. Event ids as on 2201 (the page keeps ids 6 and 7
 * from the kernel). Cores: AIC:AIV 1:2 (the page); 24 and 48, the devkit's
 * platform stub for arch 3510 (tests/api/common/platform_stub.cpp:
 * ai_core_cnt 24, vector_core_cnt 48), the only per-part count it gives.
 * These rows serve the host-side queries (asc._C.platform); the simulator
 * does not model arch 3510 (its register-based vector unit, SIMT, the new
 * UB<->L1 and L0C->UB paths), so asc_kernel_launch refuses them and
 * asc.runtime.config.set_platform(Backend.Model, ...) refuses to select
 * them (docs/api.md). */
#include <string.h>

#include "asc/exec.h"

/* the memories and event ids of NPU arch 2201 (every part here) */
#define ARCH_2201                                                              \
  192 * 1024, 256, 8 * 1024, 128, 512 * 1024, 128, 256, 128 * 1024, 8, 6, 2201

/* the memories and event ids of NPU arch 3510 */
#define ARCH_3510                                                              \
  256 * 1024, 6 * 1024, 2 * 1024, 8 * 1024, 512 * 1024, 0, 0, 256 * 1024, 8,   \
      6, 3510

static const AscPlatform platforms[] = {
    {"Ascend910B1", 48, 24, ARCH_2201},
    {"Ascend910B2", 48, 24, ARCH_2201},
    {"Ascend910B2C", 48, 24, ARCH_2201},
    {"Ascend910B3", 40, 20, ARCH_2201},
    {"Ascend910B4", 40, 20, ARCH_2201},
    {"Ascend910B4-1", 40, 20, ARCH_2201},
    {"Ascend910_9362", 48, 24, ARCH_2201},
    {"Ascend910_9372", 48, 24, ARCH_2201},
    {"Ascend910_9381", 48, 24, ARCH_2201},
    {"Ascend910_9382", 48, 24, ARCH_2201},
    {"Ascend910_9391", 48, 24, ARCH_2201},
    {"Ascend910_9392", 48, 24, ARCH_2201},
    {"Ascend910_9579", 48, 24, ARCH_3510},
    {"Ascend910_9589", 48, 24, ARCH_3510},
    {"Ascend910_9599", 48, 24, ARCH_3510},
    {"Ascend950PR_950z", 48, 24, ARCH_3510},
    {"Ascend950PR_9579", 48, 24, ARCH_3510},
    {"Ascend950PR_957b", 48, 24, ARCH_3510},
    {"Ascend950PR_957c", 48, 24, ARCH_3510},
    {"Ascend950PR_957d", 48, 24, ARCH_3510},
    {"Ascend950PR_9589", 48, 24, ARCH_3510},
    {"Ascend950PR_958b", 48, 24, ARCH_3510},
    {"Ascend950PR_9599", 48, 24, ARCH_3510},
};

const AscPlatform *asc_platform_get(const char *name) {
  for (size_t i = 0; i < sizeof platforms / sizeof platforms[0]; i++)
    if (strcmp(platforms[i].name, name) == 0)
      return &platforms[i];
  return NULL;
}

const AscPlatform *asc_platform_at(int index) {
  if (index < 0 || (size_t)index >= sizeof platforms / sizeof platforms[0])
    return NULL;
  return &platforms[index];
}

int asc_platform_simulated(const AscPlatform *p) {
  return p && p->npu_arch == ASC_SIM_NPU_ARCH;
}
