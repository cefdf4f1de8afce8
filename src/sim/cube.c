/* The cube core's memories: L1 (TPosition A1, B1, C1), L0A (A2), L0B (B2),
 * L0C (CO1), the bias table (C2) and the fixpipe buffer, as the devkit's
 * GetPhyType maps positions to hardware on arch 2201
 * (impl/basic_api/kernel_event.h; CO2 is GM there, C2PIPE2GM the fixpipe
 * buffer, a position upstream's TPosition does not have).
 *
 * Sizes: L1 and L0C from the platform row (src/sim/platform.c); L0A and
 * L0B 64 KiB (TOTAL_L0A_SIZE, TOTAL_L0B_SIZE of
 * impl/basic_api/utils/kernel_utils_constants.h), the bias table 1 KiB
 * (BIAS_TABLE_SIZE of the Matmul's C2 buffer for arch 2201,
 * impl/adv_api/detail/matmul/resource/bias_buffer/c2_buffer/c2_buffer.h,
 * and the conv tilings' BT_SIZE), the fixpipe buffer 2 KiB (FB_SIZE of the
 * conv tilings, impl/adv_api/tiling/conv/conv3d_tiling_util.h). */
#include <stdio.h>
#include <stdlib.h>

#include "checked.h"
#include "cube.h"

enum { L0AB_SIZE = 64 * 1024, BT_SIZE = 1024, FB_SIZE = 2048 };

/* sim.h sizes the block's and the pipe's arrays of the memories by hand */
_Static_assert(sizeof(((AscBlockState *)0)->cube_mem) /
                       sizeof(((AscBlockState *)0)->cube_mem[0]) ==
                   SIM_CMEM_COUNT,
               "AscBlockState.cube_mem has one entry per SimCubeMem");
_Static_assert(sizeof(((AscSimPipe *)0)->cube_used) /
                       sizeof(((AscSimPipe *)0)->cube_used[0]) ==
                   SIM_CMEM_COUNT,
               "AscSimPipe.cube_used has one entry per SimCubeMem");

int sim_cube_mem_of_position(int position) {
  switch (position) {
  case ASC_TPOSITION_A1:
  case ASC_TPOSITION_B1:
  case ASC_TPOSITION_C1:
    return SIM_CMEM_L1;
  case ASC_TPOSITION_A2:
    return SIM_CMEM_L0A;
  case ASC_TPOSITION_B2:
    return SIM_CMEM_L0B;
  case ASC_TPOSITION_CO1:
    return SIM_CMEM_L0C;
  case ASC_TPOSITION_C2:
    return SIM_CMEM_BT;
  default:
    return -1;
  }
}

const char *sim_cube_mem_name(int mem) {
  static const char *names[SIM_CMEM_COUNT] = {"L1",  "L0A", "L0B",
                                              "L0C", "BT",  "FB"};
  return mem >= 0 && mem < SIM_CMEM_COUNT ? names[mem] : "?";
}

int64_t sim_cube_mem_size(const AscBlockState *b, int mem) {
  switch (mem) {
  case SIM_CMEM_L1:
    return (int64_t)b->platform->l1_size;
  case SIM_CMEM_L0A:
  case SIM_CMEM_L0B:
    return L0AB_SIZE;
  case SIM_CMEM_L0C:
    return (int64_t)b->platform->l0c_size;
  case SIM_CMEM_BT:
    return BT_SIZE;
  case SIM_CMEM_FB:
    return FB_SIZE;
  default:
    return 0;
  }
}

int64_t sim_cube_mem_capacity(const AscBlockState *b, int mem) {
  int64_t size = sim_cube_mem_size(b, mem);
  if (mem == SIM_CMEM_L1)
    size -= (int64_t)b->platform->l1_reserved; /* TOTAL_L1_SIZE */
  return size;
}

int64_t sim_cube_mem_user(const AscBlockState *b, int mem) {
  if (mem == SIM_CMEM_L1) /* less ASC_L1_SIZE's 256 bytes in a MIX kernel */
    return asc_reserve_l1_user(&b->reserve, b->platform);
  return sim_cube_mem_size(b, mem);
}

const char *sim_cube_mem_note(const AscBlockState *b, int mem, char *buf,
                              size_t n) {
  if (mem == SIM_CMEM_L1)
    return asc_reserve_l1_note(&b->reserve, b->platform, buf, n);
  snprintf(buf, n, "the kernel may use %s bytes [0, %lld); use smaller buffers",
           sim_cube_mem_name(mem), (long long)sim_cube_mem_size(b, mem));
  return buf;
}

AscStatus sim_cube_take(AscExec *x, const AscInstr *in, const char *api,
                        int mem, int64_t bytes, int64_t *base) {
  int64_t start = x->b->pipe.cube_used[mem];
  int64_t cap = sim_cube_mem_user(x->b, mem);
  char note[768];
  if (bytes < 0 || bytes > cap - start)
    return sim_fail(x, in,
                    "%s: %s overflow: %lld more bytes requested at offset "
                    "%lld; %s",
                    api, sim_cube_mem_name(mem), (long long)bytes,
                    (long long)start,
                    sim_cube_mem_note(x->b, mem, note, sizeof note));
  x->b->pipe.cube_used[mem] = start + bytes;
  *base = start;
  return ASC_OK;
}

static uint8_t *mem_of(AscExec *x, const AscInstr *in, int mem) {
  uint8_t **m = &x->b->cube_mem[mem];
  if (!*m) {
    *m = calloc(1, (size_t)sim_cube_mem_size(x->b, mem));
    if (!*m)
      sim_fail(x, in, "out of host memory for the cube core's %s",
               sim_cube_mem_name(mem));
  }
  return *m;
}

uint8_t *sim_cube_range(AscExec *x, const AscInstr *in, const AscTensorRef *t,
                        int64_t off, int64_t nbytes, int write,
                        const char *what) {
  int mem = sim_cube_mem_of_position(t->position);
  if (mem < 0) {
    sim_fail(x, in, "%s: not a tensor of the cube core's memories", what);
    return NULL;
  }
  const char *name = sim_cube_mem_name(mem);
  int64_t esize = (int64_t)asc_dtype_size((AscDType)t->dtype);
  int64_t size = sim_cube_mem_size(x->b, mem), tbytes, lo, hi;
  if (off < 0 || nbytes < 0 || asc_add_i64(off, nbytes, &hi) ||
      (t->len >= 0 && (asc_mul_i64(t->len, esize, &tbytes) || hi > tbytes))) {
    sim_fail(x, in,
             "%s: %lld bytes from byte %lld of a LocalTensor of %lld "
             "elements of %lld bytes (%s address %lld): past its end",
             what, (long long)nbytes, (long long)off, (long long)t->len,
             (long long)esize, name, (long long)t->addr);
    return NULL;
  }
  if (asc_add_i64(t->addr, off, &lo) || asc_add_i64(lo, nbytes, &hi) ||
      t->addr < 0 || hi > size) {
    sim_fail(x, in,
             "%s: %s access out of bounds: %lld bytes from %s address "
             "%lld + %lld, but the %s has %lld bytes",
             what, name, (long long)nbytes, name, (long long)t->addr,
             (long long)off, name, (long long)size);
    return NULL;
  }
  uint8_t *m = mem_of(x, in, mem);
  if (!m)
    return NULL;
  if (x->b->n_observers)
    sim_record_access(x->b, (AscSpace)(ASC_SPACE_CUBE + mem), write, -1, lo,
                      hi);
  return m + lo;
}

const char *asc_space_name(int space) {
  if (space == ASC_SPACE_UB)
    return "UB";
  if (space == ASC_SPACE_GM)
    return "GM";
  if (space >= ASC_SPACE_CUBE && space < ASC_SPACE_CUBE + SIM_CMEM_COUNT)
    return sim_cube_mem_name(space - ASC_SPACE_CUBE);
  return NULL;
}

void sim_cube_bounding(AscExec *x, int n_before) {
  for (int i = n_before; i < x->b->ev.n_acc; i++)
    x->b->ev.acc[i].bounding = 1;
}

void sim_cube_free(AscBlockState *b) {
  for (int i = 0; i < SIM_CMEM_COUNT; i++) {
    free(b->cube_mem[i]);
    b->cube_mem[i] = NULL;
  }
}

AscStatus sim_mmad_dims(AscExec *x, const AscInstr *in, const char *api,
                        int64_t m, int64_t n, int64_t k) {
  const int64_t dims[3] = {m, n, k};
  const char *names[3] = {"m", "n", "k"};
  for (int i = 0; i < 3; i++)
    if (dims[i] < 0 || dims[i] > 4095)
      return sim_fail(x, in,
                      "%s: MmadParams.%s = %lld, outside [0, 4095] (the "
                      "instruction's 12-bit field; devkit 矩阵计算（ISASI）/"
                      "Mmad计算/Mmad.md): split the product into calls of at "
                      "most 4095 rows, columns and depth",
                      api, names[i], (long long)dims[i]);
  return ASC_OK;
}
