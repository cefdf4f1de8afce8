// Our declaration of the devkit's matmul API (family matmul): the op project's lib/matmul_intf.h (the devkit's
// include/adv_api/matmul/matmul_intf.h), which kernel_operator.h does not include (a kernel using Matmul
// includes it itself, as the devkit's samples do).
#ifndef ASC_TEST_LIB_MATMUL_INTF_H
#define ASC_TEST_LIB_MATMUL_INTF_H
#include "kernel_operator.h"

// MatmulConfig (include/adv_api/matmul/matmul_config.h, tiling.h: global namespace),
// MatmulType (impl/adv_api/detail/matmul/utils/matmul_type_def.h), Matmul (matmul_intf.h: MatmulImpl or
// MatmulClient; the methods of include/adv_api/matmul/matmul.h) and REGIST_MATMUL_OBJ (kfc_register_obj.h)
struct MatmulConfig {
  bool doNorm;
  bool doBasicBlock;
  bool doMultiDataLoad;
  uint32_t basicM;
  uint32_t basicN;
  uint32_t basicK;
  bool intrinsicsCheck;
  bool isNBatch;
  bool enVecND2NZ;
  bool doSpecialBasicBlock;
  uint32_t doMTE2Preload;
  uint32_t singleCoreM;
  uint32_t singleCoreN;
  uint32_t singleCoreK;
  uint32_t stepM;
  uint32_t stepN;
  uint32_t baseMN;
  uint32_t singleCoreMN;
  bool enUnitFlag = true;
  bool isPerTensor;
  bool hasAntiQuantOffset;
  bool doIBShareNorm;
  bool doSpecialMDL;
  bool enableInit = true;
  BatchMode batchMode;
  bool enableEnd = true;
  bool enableGetTensorC = true;
  bool enableSetOrgShape = true;
  bool enableSetBias = true;
  bool enableSetTail = true;
  bool enableQuantVector = true;
  bool enableSetDefineData = true;
  uint8_t iterateMode = IterateMode::ITERATE_MODE_DEFAULT;
  bool enableReuse = true;
  bool enableUBReuse;
  bool enableL1CacheUB;
  bool intraBlockPartSum = false;
  IterateOrder iterateOrder{IterateOrder::UNDEF};
  ScheduleType scheduleType;
  bool enableDoubleCache;
  bool isBiasBatch = true;
  bool enableStaticPadZeros = false;
  bool isPartialOutput = false;
  bool enableMixDualMaster = false;
  bool isA2B2Shared = false;
  bool isEnableChannelSplit = false;
  bool enableKdimReorderLoad = false;
  bool isCO1Shared = false;
  uint32_t sharedCO1BufferSize = 64 * 1024;
  BatchOutMode bmmOutMode = BatchOutMode::SINGLE_BATCH;
  bool enableL1BankConflictOptimise = false;
  bool enableRelu = false;
};
extern const MatmulConfig CFG_NORM;
extern const MatmulConfig CFG_MDL;
extern const MatmulConfig CFG_IBSHARE_NORM;
// family: adv tiling (misc): the constant tiling (include/adv_api/matmul/tiling.h; constant_tiling.h). The
// devkit's cfg defaults to CFG_NORM, which this header declares without its value: value-initialised here.
struct MatmulApiStaticTiling {
  int32_t usedCoreNum = -1;
  int32_t M = -1;
  int32_t N = -1;
  int32_t Ka = -1;
  int32_t Kb = -1;
  int32_t singleCoreM = -1;
  int32_t singleCoreN = -1;
  int32_t singleCoreK = -1;
  int32_t baseM = -1;
  int32_t baseN = -1;
  int32_t baseK = -1;
  int32_t depthA1 = -1;
  int32_t depthB1 = -1;
  int32_t stepM = -1;
  int32_t stepN = -1;
  int32_t isBias = -1;
  int32_t transLength = -1;
  int32_t iterateOrder = -1;
  int32_t shareMode = -1;
  int32_t shareL1Size = -1;
  int32_t shareL0CSize = -1;
  int32_t shareUbSize = -1;
  int32_t stepKa = -1;
  int32_t stepKb = -1;
  int32_t depthAL1CacheUB = -1;
  int32_t depthBL1CacheUB = -1;
  int32_t dbL0A = -1;
  int32_t dbL0B = -1;
  int32_t dbL0C = -1;
  int32_t ALayoutInfoB = -1;
  int32_t ALayoutInfoS = -1;
  int32_t ALayoutInfoN = -1;
  int32_t ALayoutInfoG = -1;
  int32_t ALayoutInfoD = -1;
  int32_t BLayoutInfoB = -1;
  int32_t BLayoutInfoS = -1;
  int32_t BLayoutInfoN = -1;
  int32_t BLayoutInfoG = -1;
  int32_t BLayoutInfoD = -1;
  int32_t CLayoutInfoB = -1;
  int32_t CLayoutInfoS1 = -1;
  int32_t CLayoutInfoN = -1;
  int32_t CLayoutInfoG = -1;
  int32_t CLayoutInfoS2 = -1;
  int32_t BatchNum = -1;
  int32_t mxTypePara = -1;
  MatmulConfig cfg{};
};
namespace AscendC {
template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE>
__aicore__ constexpr MatmulApiStaticTiling GetMatmulApiTiling(const MatmulConfig &mmCFG, int32_t l1Size = 524288) {
  MatmulApiStaticTiling tiling{};
  tiling.cfg = mmCFG;
  (void)l1Size;
  return tiling;
}
} // namespace AscendC
// family: matmul (mmapi): what GetOffsetC returns (matmul_config.h, global namespace)
struct MatrixOffset {
  int32_t offset;
  int32_t row;
  int32_t col;
  int32_t height;
  int32_t width;
};
namespace AscendC {
template <TPosition POSITION, CubeFormat FORMAT, typename TYPE, bool ISTRANS = false,
          LayoutMode LAYOUT = LayoutMode::NONE, bool IBSHARE = false, TPosition SRCPOS = TPosition::GM>
struct MatmulType {
  using T = TYPE;
};
template <void *a = nullptr, void *b = nullptr, void *c = nullptr> struct MatmulCallBackFunc {};
template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE = C_TYPE, const auto &MM_CFG = CFG_NORM,
          class MM_CB = MatmulCallBackFunc<nullptr, nullptr, nullptr>, class MATMUL_POLICY = void>
class Matmul {
  using SrcAT = typename A_TYPE::T;
  using SrcBT = typename B_TYPE::T;
  using DstT = typename C_TYPE::T;
  using BiasT = typename BIAS_TYPE::T;

public:
  __aicore__ void Init(const TCubeTiling *__restrict cubeTiling, TPipe *tpipe = nullptr);
  __aicore__ void SetOrgShape(int orgM, int orgN, int orgK);
  __aicore__ void SetOrgShape(int orgM, int orgN, int orgKa, int orgKb, int orgKc = 0);
  __aicore__ void SetSingleShape(int singleM, int singleN, int singleK);
  __aicore__ void SetTail(int tailM = -1, int tailN = -1, int tailK = -1);
  __aicore__ void SetTensorA(const GlobalTensor<SrcAT> &gm, bool isTransposeA = false);
  __aicore__ void SetTensorB(const GlobalTensor<SrcBT> &gm, bool isTransposeB = false);
  __aicore__ void SetBias(const GlobalTensor<BiasT> &biasGlobal);
  __aicore__ void DisableBias();
  template <bool sync = true> __aicore__ bool Iterate(bool enPartialSum = false);
  template <bool sync = true>
  __aicore__ void IterateAll(const GlobalTensor<DstT> &gm, uint8_t enAtomic = 0, bool enSequentialWrite = false,
                             bool waitIterateAll = false, bool fakeMsg = false);
  template <bool sync = true>
  __aicore__ void GetTensorC(const LocalTensor<DstT> &co2Local, uint8_t enAtomic = 0, bool enSequentialWrite = false);
  template <bool sync = true>
  __aicore__ void GetTensorC(const GlobalTensor<DstT> &gm, uint8_t enAtomic = 0, bool enSequentialWrite = false);
  __aicore__ void End();
  // ---- family: matmul (mmlocal): A, B, bias in L1 and the user-managed CO1 (include/adv_api/matmul/matmul.h)
  __aicore__ void SetTensorA(const LocalTensor<SrcAT> &leftMatrix, bool isTransposeA = false);
  __aicore__ void SetTensorB(const LocalTensor<SrcBT> &rightMatrix, bool isTransposeB = false);
  __aicore__ void SetBias(const LocalTensor<BiasT> &inputBias);
  template <bool sync = true, typename T> __aicore__ bool Iterate(bool enPartialSum, const LocalTensor<T> &localCmatrix);
  // ---- family: matmul (mmapi): the rest of the methods (include/adv_api/matmul/matmul.h, matmul_client.h)
  template <bool sync = true> __aicore__ void IterateAll(const LocalTensor<DstT> &ubCmatrix, uint8_t enAtomic = 0);
  template <bool sync = true>
  __aicore__ void GetTensorC(const GlobalTensor<DstT> &gm, const LocalTensor<DstT> &co2Local, uint8_t enAtomic = 0,
                             bool enSequentialWrite = false);
  template <bool sync = true> __aicore__ GlobalTensor<DstT> GetTensorC(uint8_t enAtomic = 0, bool enSequentialWrite = false);
  __aicore__ void WaitIterateAll();
  template <bool sync = true, bool waitIterateBatch = false>
  __aicore__ void IterateBatch(const GlobalTensor<DstT> &gm, uint32_t batchA, uint32_t batchB, bool enSequentialWrite,
                               const uint32_t matrixStrideA = 0, const uint32_t matrixStrideB = 0,
                               const uint32_t matrixStrideC = 0, const bool enPartialSum = false,
                               const uint8_t enAtomic = 0);
  template <bool sync = true>
  __aicore__ void IterateBatch(const LocalTensor<DstT> &ubCmatrix, uint32_t batchA, uint32_t batchB,
                               bool enSequentialWrite, const uint32_t matrixStrideA = 0,
                               const uint32_t matrixStrideB = 0, const uint32_t matrixStrideC = 0,
                               const bool enPartialSum = false, const uint8_t enAtomic = 0);
  __aicore__ void IterateBatch(const GlobalTensor<DstT> &gm, bool enPartialSum, uint8_t enAtomic, bool enSequentialWrite,
                               const uint32_t matrixStrideA = 0, const uint32_t matrixStrideB = 0,
                               const uint32_t matrixStrideC = 0);
  __aicore__ void IterateBatch(const LocalTensor<DstT> &ubCmatrix, bool enPartialSum, uint8_t enAtomic,
                               bool enSequentialWrite, const uint32_t matrixStrideA = 0,
                               const uint32_t matrixStrideB = 0, const uint32_t matrixStrideC = 0);
  __aicore__ void WaitIterateBatch();
  template <bool sync = true, bool waitIterateBatch = false>
  __aicore__ void IterateNBatch(const uint32_t batchLoop, uint32_t batchA, uint32_t batchB, bool enSequentialWrite,
                                const uint32_t matrixStrideA = 0, const uint32_t matrixStrideB = 0,
                                const uint32_t matrixStrideC = 0, const bool enPartialSum = false,
                                const uint8_t enAtomic = 0);
  template <bool sync = true>
  __aicore__ GlobalTensor<DstT> GetBatchTensorC(uint32_t batchA, uint32_t batchB, bool enSequentialWrite = false);
  template <bool sync = true>
  __aicore__ void GetBatchTensorC(const LocalTensor<DstT> &c, uint32_t batchA, uint32_t batchB,
                                  bool enSequentialWrite = false);
  __aicore__ void AsyncGetTensorC(const LocalTensor<DstT> &c);
  __aicore__ void WaitGetTensorC();
  template <bool isTurnOnDebug = true> __aicore__ MatrixOffset GetOffsetC();
  __aicore__ void SetBatchNum(int32_t batchA, int32_t batchB);
  __aicore__ void SetQuantScalar(const uint64_t quantScalar);
  __aicore__ void SetQuantVector(const GlobalTensor<uint64_t> &quantTensor);
  __aicore__ void SetQuantVector(const LocalTensor<uint64_t> &quantTensor);
  __aicore__ void SetHF32(bool enableHF32 = false, int32_t transMode = 0);
  template <class T> __aicore__ void SetWorkspace(__gm__ const T *addr, int size);
  template <class T> __aicore__ void SetWorkspace(GlobalTensor<T> &addr);
  template <class T> __aicore__ void SetSelfDefineData(T dataPtr);
  __aicore__ void SetUserDefInfo(const uint64_t tilingPtr);
  __aicore__ void SetSparseIndex(const GlobalTensor<uint8_t> &indexGlobal);
};
template <class T, class... Args> __aicore__ void PyascRegistMatmulObj(TPipe *tpipe, GM_ADDR workspace, T &a, Args... b);
// family entry: the cube core's reset of the message area and its signal to the vector cores
// (impl/adv_api/detail/kfc/kernel_kfc.h)
__aicore__ void clearWorkspace(__gm__ uint8_t *workspace);
} // namespace AscendC
// the devkit's macro expands to the KFC server / client set-up; here a call that checks its arguments
#define REGIST_MATMUL_OBJ(tpipe, workspace, ...) AscendC::PyascRegistMatmulObj(tpipe, workspace, __VA_ARGS__)

#endif
