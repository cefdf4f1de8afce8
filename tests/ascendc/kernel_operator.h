// Declarations of the Ascend C API surface that pyasc emits, for checking
// generated code with a host compiler (`g++ -std=c++17 -fsyntax-only`) in
// CI, where the CANN devkit is not available.
//
// Written for pyasc from the signatures of the Ascend C devkit
// (mirror-cann/asc-devkit, include/basic_api) for the Ascend910B
// (dav-c220); nothing here is copied. Keep it honest: every declaration has
// the real API's name, template parameters, parameter types and order, and
// the element-type restrictions of the 910B are static_asserts, so a typo or
// a wrong template argument in the emitter fails to compile here as it would
// against the real headers. Declarations only: nothing is defined (so the
// real API's `inline` is left out, which would warn about missing bodies).
#ifndef PYASC_TEST_KERNEL_OPERATOR_H
#define PYASC_TEST_KERNEL_OPERATOR_H

#include <cstdint>
#include <type_traits>
#if defined(ASCENDC_CPU_DEBUG) && ASCENDC_CPU_DEBUG == 1
#include <string>
#endif

// ---- compiler-provided keywords and types (Bisheng) -------------------------
#define __aicore__
#define __global__
#define __gm__
using GM_ADDR = __gm__ uint8_t *;

struct half {
  half() = default;
  half(float);
  operator float() const;
};
struct bfloat16_t {
  bfloat16_t() = default;
  bfloat16_t(float);
  operator float() const;
};

enum pipe_t {
  PIPE_S = 0,
  PIPE_V,
  PIPE_M,
  PIPE_MTE1,
  PIPE_MTE2,
  PIPE_MTE3,
  PIPE_ALL,
  PIPE_MTE4 = 7,
  PIPE_MTE5,
  PIPE_V2,
  PIPE_FIX
};

namespace AscendC {

enum class TPosition : uint8_t {
  GM,
  A1,
  A2,
  B1,
  B2,
  C1,
  C2,
  CO1,
  CO2,
  VECIN,
  VECOUT,
  VECCALC,
  LCM = VECCALC,
  SPM,
  SHM = SPM,
  TSCM,
  C2PIPE2GM,
  C2PIPE2LOCAL,
  MAX,
};

enum class HardEvent : uint8_t {
  MTE2_MTE1,
  MTE1_MTE2,
  MTE1_M,
  M_MTE1,
  MTE2_V,
  V_MTE2,
  MTE3_V,
  V_MTE3,
  M_V,
  V_M,
  V_V,
  MTE3_MTE1,
  MTE1_MTE3,
  MTE1_V,
  MTE2_M,
  M_MTE2,
  V_MTE1,
  M_FIX,
  FIX_M,
  MTE3_MTE2,
  MTE2_MTE3,
  S_V,
  V_S,
  S_MTE2,
  MTE2_S,
  S_MTE3,
  MTE3_S,
  MTE2_FIX,
  FIX_MTE2,
  FIX_S,
  M_S,
  FIX_MTE3,
  MTE1_FIX,
  FIX_MTE1,
  FIX_FIX,
  MAX,
};

enum class RoundMode : uint8_t {
  CAST_NONE = 0,
  CAST_RINT,
  CAST_FLOOR,
  CAST_CEIL,
  CAST_ROUND,
  CAST_TRUNC,
  CAST_ODD,
  UNKNOWN = 0xFF,
};

// ---- element-type rules of the 910B vector unit ------------------------------
template <typename T, typename... Ts>
constexpr bool IsOneOf = (std::is_same<T, Ts>::value || ...);
template <typename T>
constexpr bool ArithType = IsOneOf<T, half, float, int16_t, int32_t>;
template <typename T>
constexpr bool FloatType = IsOneOf<T, half, float>;
template <typename T>
constexpr bool AddReluType = IsOneOf<T, half, float, int16_t>;
template <typename T>
constexpr bool BitsType = IsOneOf<T, int16_t, uint16_t>;
template <typename T>
constexpr bool ShiftType = IsOneOf<T, int16_t, uint16_t, int32_t, uint32_t>;

// ---- tensors (kernel_tensor.h, kernel_tensor_base.h) ----------------------------
// The device (NPU) flavour of the API. Print and ToFile exist only in the
// devkit's CPU debug build (ASCENDC_CPU_DEBUG), where GetPhyAddr returns a
// host pointer instead. The devkit marks LocalTensor::GetLength,
// SetAddrWithOffset, Print and ToFile [[deprecated]]; here they are not, so
// that the -Werror check of the suite accepts the kernels that call them (a
// real build warns).
using TBufHandle = uint8_t *;
using TEventID = int8_t;
using TTagType = int32_t;
enum class CacheMode;           // (defined with the other enums below)
enum class CacheRwMode;
enum class Hardware : uint8_t;
struct ShapeInfo; // (with the parameter structs below)

template <typename T> class GlobalTensor {
public:
  __aicore__ GlobalTensor();
  __aicore__ void SetGlobalBuffer(__gm__ T *buffer, uint64_t bufferSize);
  __aicore__ void SetGlobalBuffer(__gm__ T *buffer);
  __aicore__ const __gm__ T *GetPhyAddr() const;
  __aicore__ __gm__ T *GetPhyAddr(const uint64_t offset) const;
  __aicore__ GlobalTensor operator[](const uint64_t offset) const;
  __aicore__ T GetValue(const uint64_t offset) const;
  __aicore__ void SetValue(const uint64_t offset, T value);
  __aicore__ uint64_t GetSize() const;
  template <CacheRwMode rwMode = CacheRwMode(3) /* RW */> __aicore__ void SetL2CacheHint(CacheMode mode);
  __aicore__ void SetShapeInfo(const ShapeInfo &shapeInfo);
  __aicore__ ShapeInfo GetShapeInfo() const;
};

template <typename T> class LocalTensor {
public:
  __aicore__ LocalTensor();
  __aicore__ LocalTensor(TPosition pos, uint32_t addr, uint32_t tileSize);
  __aicore__ LocalTensor operator[](const uint32_t offset) const;
  __aicore__ T GetValue(const uint32_t index) const;
  template <typename S>
  __aicore__ void SetValue(const uint32_t index, const S value) const;
  __aicore__ uint64_t GetPhyAddr() const;
  __aicore__ uint64_t GetPhyAddr(const uint32_t offset) const;
  template <typename U> __aicore__ LocalTensor<U> ReinterpretCast() const;
  template <typename S> __aicore__ void SetAddrWithOffset(LocalTensor<S> &src, uint32_t offset);
  __aicore__ int32_t GetPosition() const;
  __aicore__ void SetSize(const uint32_t size);
  __aicore__ uint32_t GetSize() const;
  __aicore__ uint32_t GetLength() const;
  __aicore__ void SetBufferLen(uint32_t dataLen);
  __aicore__ void SetUserTag(const TTagType tag);
  __aicore__ TTagType GetUserTag() const;
  __aicore__ void SetShapeInfo(const ShapeInfo &shapeInfo);
  __aicore__ ShapeInfo GetShapeInfo() const;
#if defined(ASCENDC_CPU_DEBUG) && ASCENDC_CPU_DEBUG == 1
  void Print();
  void Print(uint32_t len);
  int32_t ToFile(const std::string &fileName) const;
#endif
};

// static tensor programming: tensors placed one after another, no TPipe
template <Hardware hard = Hardware(1) /* UB */> class LocalMemAllocator {
public:
  __aicore__ LocalMemAllocator();
  __aicore__ uint32_t GetCurAddr() const;
  template <TPosition pos, class DataType, uint32_t tileSize> __aicore__ LocalTensor<DataType> Alloc();
  template <TPosition pos, class DataType> __aicore__ LocalTensor<DataType> Alloc(uint32_t tileSize);
};

// ---- framework (kernel_tpipe.h, kernel_event.h) -----------------------------------
// TQue<pos, depth> is the TQueBind of GetBufferLogicPos(pos): GM -> VECIN for
// VECIN, VECOUT -> GM for VECOUT; TBuf<pos> is TQueBind<pos, pos, 0>. The
// depth rules of the devkit's static_asserts are kept: the in-place forms
// need depth 0, the others depth >= 1.
constexpr TPosition GetBufferLogicPos(TPosition pos, bool isSrc) {
  switch (pos) {
  case TPosition::A1:
  case TPosition::B1:
  case TPosition::C1:
  case TPosition::VECIN:
    return isSrc ? TPosition::GM : pos;
  case TPosition::A2:
    return isSrc ? TPosition::A1 : pos;
  case TPosition::B2:
    return isSrc ? TPosition::B1 : pos;
  case TPosition::C2:
    return isSrc ? TPosition::C1 : pos;
  case TPosition::CO1:
    return isSrc ? pos : TPosition::CO2;
  case TPosition::CO2:
  case TPosition::VECOUT:
    return isSrc ? pos : TPosition::GM;
  default:
    return TPosition::MAX;
  }
}

template <TPosition src, TPosition dst, int32_t depth, auto mask = 0> class TQueBind {
public:
  __aicore__ TQueBind();
  template <typename T> __aicore__ LocalTensor<T> AllocTensor() {
    static_assert(depth != 0, "AllocTensor<T>() needs depth >= 1 (AllocTensor(tensor) for depth 0)");
    return LocalTensor<T>();
  }
  template <typename T> __aicore__ void AllocTensor(LocalTensor<T> &tensor) {
    static_assert(depth == 0, "AllocTensor(tensor) needs depth 0");
  }
  template <typename T> __aicore__ void FreeTensor(LocalTensor<T> &tensor);
  template <typename T> __aicore__ bool EnQue(const LocalTensor<T> &tensor);
  __aicore__ bool EnQue(TBufHandle buf);
  template <TPosition srcUserPos, TPosition dstUserPos, typename T>
  __aicore__ bool EnQue(const LocalTensor<T> &tensor) {
    static_assert(depth != 0, "EnQue<srcUserPos, dstUserPos>() needs depth >= 1");
    return true;
  }
  template <typename T> __aicore__ void DeQue(LocalTensor<T> &tensor) {
    static_assert(depth == 0, "DeQue(tensor) needs depth 0");
  }
  template <typename T> __aicore__ LocalTensor<T> DeQue() {
    static_assert(depth != 0, "DeQue<T>() needs depth >= 1 (DeQue(tensor) for depth 0)");
    return LocalTensor<T>();
  }
  __aicore__ TBufHandle DeQue();
  template <TPosition srcUserPos, TPosition dstUserPos, typename T> __aicore__ LocalTensor<T> DeQue() {
    static_assert(depth != 0, "DeQue<srcUserPos, dstUserPos, T>() needs depth >= 1");
    return LocalTensor<T>();
  }
#define PYASC_QUEUED(DECL, WHAT)                                                                     \
  __aicore__ DECL {                                                                                 \
    static_assert(depth != 0, WHAT " is not supported while depth is zero");                        \
    return {};                                                                                      \
  }
  PYASC_QUEUED(bool VacantInQue(), "VacantInQue")
  PYASC_QUEUED(bool HasTensorInQue(), "HasTensorInQue")
  PYASC_QUEUED(int32_t GetTensorCountInQue(), "GetTensorCountInQue")
  PYASC_QUEUED(bool HasIdleBuffer(), "HasIdleBuffer")
#undef PYASC_QUEUED
  __aicore__ void FreeAllEvent() { static_assert(depth != 0, "FreeAllEvent is not supported while depth is zero"); }
  __aicore__ void InitStartBufHandle(TBufHandle startBufhandle, uint8_t num, uint32_t len);
  template <typename T>
  __aicore__ void InitBufHandle(T *bufPool, uint32_t index, TBufHandle bufhandle, uint32_t curPoolAddr,
                                uint32_t len);
};

template <TPosition pos, int32_t depth, auto mask = 0>
class TQue : public TQueBind<GetBufferLogicPos(pos, true), GetBufferLogicPos(pos, false), depth, mask> {
public:
  __aicore__ TQue() = default;
};

template <TPosition pos = TPosition::LCM> class TBuf : public TQueBind<pos, pos, 0, 0> {
public:
  __aicore__ TBuf() = default;
  template <typename T> __aicore__ LocalTensor<T> Get();
  template <typename T> __aicore__ LocalTensor<T> Get(uint32_t len);
  template <typename T> __aicore__ LocalTensor<T> GetWithOffset(uint32_t size, uint32_t bufOffset);
  template <typename T> __aicore__ void EnQue(const LocalTensor<T> &tensor);
  template <typename T> __aicore__ LocalTensor<T> DeQue();
  template <typename T> __aicore__ LocalTensor<T> AllocTensor();
  template <typename T> __aicore__ void FreeTensor(LocalTensor<T> &tensor);
  __aicore__ bool EnQue(TBufHandle buf);
  __aicore__ TBufHandle DeQue();
  __aicore__ void InitStartBufHandle(TBufHandle startBufhandle, uint8_t num, uint32_t len);
};

template <TPosition pos, uint32_t bufIDSize = 4> class TBufPool {
public:
  static constexpr TPosition poolPos = pos;
  __aicore__ TBufPool();
  __aicore__ ~TBufPool();
  template <class T> __aicore__ bool InitBuffer(T &que, uint8_t num, uint32_t len);
  template <TPosition bufPos> __aicore__ bool InitBuffer(TBuf<bufPos> &buf, uint32_t len);
  // (the devkit's pool reaches into the pools it is given, which only a pool of its own specialisation may)
  template <class T, class U> __aicore__ bool InitBufPool(T &bufPool, uint32_t len, U &shareBuf) {
    static_assert(std::is_same<T, TBufPool>::value && std::is_same<U, TBufPool>::value,
                  "TBufPool::InitBufPool: the pools must be of this pool's own type");
    return true;
  }
  template <class T> __aicore__ bool InitBufPool(T &bufPool, uint32_t len) {
    static_assert(std::is_same<T, TBufPool>::value, "TBufPool::InitBufPool: the pool must be of this pool's own type");
    return true;
  }
  __aicore__ void Reset();
};

class TPipe {
public:
  __aicore__ TPipe();
  __aicore__ ~TPipe();
  __aicore__ void Init();
  template <class T> __aicore__ bool InitBuffer(T &que, uint8_t num, uint32_t len);
  template <TPosition bufPos> __aicore__ bool InitBuffer(TBuf<bufPos> &buf, uint32_t len);
  template <class T> __aicore__ bool InitBufPool(T &bufPool, uint32_t len);
  template <class T, class U> __aicore__ bool InitBufPool(T &bufPool, uint32_t len, U &shareBuf);
  template <HardEvent evt> __aicore__ TEventID AllocEventID();
  template <HardEvent evt> __aicore__ void ReleaseEventID(TEventID id);
  template <HardEvent evt> __aicore__ TEventID FetchEventID();
  __aicore__ TEventID FetchEventID(HardEvent evt);
  __aicore__ void DestroyWithoutPipeAll();
  __aicore__ void Destroy();
  __aicore__ void Reset();
#if defined(ASCENDC_CPU_DEBUG) && ASCENDC_CPU_DEBUG == 1
  uint8_t *GetBaseAddr(int8_t logicPos);
#endif
};

} // namespace AscendC
// kernel_common.h: the TPipe the kernel constructed (global namespace)
__aicore__ AscendC::TPipe *GetTPipePtr();
namespace AscendC {

// ---- system variables, synchronisation ------------------------------------------
__aicore__ int64_t GetBlockIdx();
__aicore__ int64_t GetBlockNum();

template <HardEvent event> __aicore__ void SetFlag(int32_t eventID);
template <HardEvent event> __aicore__ void WaitFlag(int32_t eventID);
template <pipe_t pipe> __aicore__ void PipeBarrier();

// ---- debugging (kernel_operator_dump_tensor_intf.h) ----------------------------------
template <typename T> __aicore__ void DumpTensor(const LocalTensor<T> &tensor, uint32_t desc, uint32_t dumpSize);
template <typename T> __aicore__ void DumpTensor(const GlobalTensor<T> &tensor, uint32_t desc, uint32_t dumpSize);

// ---- data movement (count form) ----------------------------------------------------
template <typename T>
__aicore__ void DataCopy(const LocalTensor<T> &dst, const GlobalTensor<T> &src, const uint32_t count);
template <typename T>
__aicore__ void DataCopy(const GlobalTensor<T> &dst, const LocalTensor<T> &src, const uint32_t count);
template <typename T>
__aicore__ void DataCopy(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint32_t count);

// ---- repeat parameters of the level-0 forms (kernel_struct_binary.h, kernel_struct_unary.h) ----
struct BinaryRepeatParams {
  __aicore__ BinaryRepeatParams() {}
  __aicore__ BinaryRepeatParams(const uint8_t dstBlkStrideIn, const uint8_t src0BlkStrideIn,
                                const uint8_t src1BlkStrideIn, const uint8_t dstRepStrideIn,
                                const uint8_t src0RepStrideIn, const uint8_t src1RepStrideIn);
  uint32_t blockNumber = 8;
  uint8_t dstBlkStride = 1;
  uint8_t src0BlkStride = 1;
  uint8_t src1BlkStride = 1;
  uint8_t dstRepStride = 8;
  uint8_t src0RepStride = 8;
  uint8_t src1RepStride = 8;
  bool repeatStrideMode = false;
  bool strideSizeMode = false;
};

struct UnaryRepeatParams {
  __aicore__ UnaryRepeatParams() {}
  __aicore__ UnaryRepeatParams(const uint16_t dstBlkStrideIn, const uint16_t srcBlkStrideIn,
                               const uint8_t dstRepStrideIn, const uint8_t srcRepStrideIn);
  __aicore__ UnaryRepeatParams(const uint16_t dstBlkStrideIn, const uint16_t srcBlkStrideIn,
                               const uint8_t dstRepStrideIn, const uint8_t srcRepStrideIn, const bool halfBlockIn);
  uint32_t blockNumber = 8;
  uint16_t dstBlkStride = 1;
  uint16_t srcBlkStride = 1;
  uint8_t dstRepStride = 8;
  uint8_t srcRepStride = 8;
  bool repeatStrideMode = false;
  bool strideSizeMode = false;
  bool halfBlock = false;
};

// ---- vector instructions (level-2 count form, level-0 mask/repeat forms) -----------
#define PYASC_BINARY(NAME, RULE)                                                                     \
  template <typename T>                                                                             \
  __aicore__ void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src0,                \
                              const LocalTensor<T> &src1, const int32_t &count) {                    \
    static_assert(RULE<T>, #NAME ": element type not supported on the Ascend910B");                \
  }                                                                                                 \
  template <typename T, bool isSetMask = true>                                                      \
  __aicore__ void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src0,                      \
                       const LocalTensor<T> &src1, uint64_t mask[], const uint8_t repeatTime,      \
                       const BinaryRepeatParams &repeatParams) {                                   \
    static_assert(RULE<T>, #NAME ": element type not supported on the Ascend910B");                \
  }                                                                                                 \
  template <typename T, bool isSetMask = true>                                                      \
  __aicore__ void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src0,                      \
                       const LocalTensor<T> &src1, uint64_t mask, const uint8_t repeatTime,        \
                       const BinaryRepeatParams &repeatParams) {                                   \
    static_assert(RULE<T>, #NAME ": element type not supported on the Ascend910B");                \
  }
PYASC_BINARY(Add, ArithType)
PYASC_BINARY(Sub, ArithType)
PYASC_BINARY(Mul, ArithType)
PYASC_BINARY(Max, ArithType)
PYASC_BINARY(Min, ArithType)
PYASC_BINARY(Div, FloatType)
PYASC_BINARY(AddRelu, AddReluType)
PYASC_BINARY(SubRelu, AddReluType)
PYASC_BINARY(And, BitsType)
PYASC_BINARY(Or, BitsType)
PYASC_BINARY(FusedMulAdd, FloatType)
PYASC_BINARY(MulAddRelu, FloatType)
#undef PYASC_BINARY
// the devkit's level-2 And / Or also take int32_t / uint32_t (as int16 lanes; the
// level-0 forms do not): non-template overloads win over the asserting templates
#define PYASC_BITS32(NAME, T)                                                                        \
  __aicore__ inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src0,               \
                              const LocalTensor<T> &src1, const int32_t &count) {}
PYASC_BITS32(And, int32_t)
PYASC_BITS32(And, uint32_t)
PYASC_BITS32(Or, int32_t)
PYASC_BITS32(Or, uint32_t)
#undef PYASC_BITS32

// MulAddDst and Axpy: dst of T, sources of U: (half, half), (float, float), (float, half)
template <typename T, typename U>
constexpr bool MulAddPair = (std::is_same<T, U>::value && FloatType<T>) ||
                            (std::is_same<T, float>::value && std::is_same<U, half>::value);
template <typename T, typename U>
__aicore__ void MulAddDst(const LocalTensor<T> &dst, const LocalTensor<U> &src0, const LocalTensor<U> &src1,
                          const int32_t &count) {
  static_assert(MulAddPair<T, U>, "MulAddDst: element types not supported on the Ascend910B");
}
template <typename T, typename U, bool isSetMask = true>
__aicore__ void MulAddDst(const LocalTensor<T> &dst, const LocalTensor<U> &src0, const LocalTensor<U> &src1,
                          const uint64_t mask[], const uint8_t repeatTime, const BinaryRepeatParams &repeatParams) {
  static_assert(MulAddPair<T, U>, "MulAddDst: element types not supported on the Ascend910B");
}
template <typename T, typename U, bool isSetMask = true>
__aicore__ void MulAddDst(const LocalTensor<T> &dst, const LocalTensor<U> &src0, const LocalTensor<U> &src1,
                          uint64_t mask, const uint8_t repeatTime, const BinaryRepeatParams &repeatParams) {
  static_assert(MulAddPair<T, U>, "MulAddDst: element types not supported on the Ascend910B");
}
template <typename T, typename U>
__aicore__ void Axpy(const LocalTensor<T> &dst, const LocalTensor<U> &src, const U &scalarValue,
                     const int32_t &count) {
  static_assert(MulAddPair<T, U>, "Axpy: element types not supported on the Ascend910B");
}
template <typename T, typename U, bool isSetMask = true>
__aicore__ void Axpy(const LocalTensor<T> &dst, const LocalTensor<U> &src, const U &scalarValue, uint64_t mask[],
                     const uint8_t repeatTime, const UnaryRepeatParams &repeatParams) {
  static_assert(MulAddPair<T, U>, "Axpy: element types not supported on the Ascend910B");
}
template <typename T, typename U, bool isSetMask = true>
__aicore__ void Axpy(const LocalTensor<T> &dst, const LocalTensor<U> &src, const U &scalarValue, uint64_t mask,
                     const uint8_t repeatTime, const UnaryRepeatParams &repeatParams) {
  static_assert(MulAddPair<T, U>, "Axpy: element types not supported on the Ascend910B");
}

// ReduceMax / ReduceMin / ReduceSum, the level-2 forms (kernel_operator_vec_reduce_intf.h)
template <typename T>
__aicore__ void ReduceMax(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<T> &sharedTmpBuffer,
                          const int32_t count, bool calIndex = 0) {
  static_assert(FloatType<T>, "ReduceMax: element type not supported on the Ascend910B");
}
template <typename T>
__aicore__ void ReduceMin(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<T> &sharedTmpBuffer,
                          const int32_t count, bool calIndex = 0) {
  static_assert(FloatType<T>, "ReduceMin: element type not supported on the Ascend910B");
}
template <typename T, bool isSetMask = true>
__aicore__ void ReduceSum(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<T> &sharedTmpBuffer,
                          const int32_t count) {
  static_assert(FloatType<T>, "ReduceSum: element type not supported on the Ascend910B");
}

#define PYASC_SCALAR(NAME)                                                                           \
  template <typename T, bool isSetMask = true>                                                      \
  __aicore__ void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const T &scalarValue, \
                              const int32_t &count) {                                              \
    static_assert(ArithType<T>, #NAME ": element type not supported on the Ascend910B");           \
  }                                                                                                 \
  template <typename T, bool isSetMask = true>                                                      \
  __aicore__ void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const T &scalarValue, \
                       uint64_t mask[], const uint8_t repeatTime,                                  \
                       const UnaryRepeatParams &repeatParams) {                                    \
    static_assert(ArithType<T>, #NAME ": element type not supported on the Ascend910B");           \
  }                                                                                                 \
  template <typename T, bool isSetMask = true>                                                      \
  __aicore__ void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const T &scalarValue, \
                       uint64_t mask, const uint8_t repeatTime,                                    \
                       const UnaryRepeatParams &repeatParams) {                                    \
    static_assert(ArithType<T>, #NAME ": element type not supported on the Ascend910B");           \
  }
PYASC_SCALAR(Adds)
PYASC_SCALAR(Muls)
PYASC_SCALAR(Maxs)
PYASC_SCALAR(Mins)
#undef PYASC_SCALAR

#define PYASC_UNARY(NAME, RULE)                                                                      \
  template <typename T>                                                                             \
  __aicore__ void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const int32_t &count) { \
    static_assert(RULE, #NAME ": element type not supported on the Ascend910B");                   \
  }                                                                                                 \
  template <typename T, bool isSetMask = true>                                                      \
  __aicore__ void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, uint64_t mask[],      \
                       const uint8_t repeatTime, const UnaryRepeatParams &repeatParams) {          \
    static_assert(RULE, #NAME ": element type not supported on the Ascend910B");                   \
  }                                                                                                 \
  template <typename T, bool isSetMask = true>                                                      \
  __aicore__ void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, uint64_t mask,        \
                       const uint8_t repeatTime, const UnaryRepeatParams &repeatParams) {          \
    static_assert(RULE, #NAME ": element type not supported on the Ascend910B");                   \
  }
PYASC_UNARY(Exp, FloatType<T>)
PYASC_UNARY(Ln, FloatType<T>)
PYASC_UNARY(Abs, FloatType<T>)
PYASC_UNARY(Sqrt, FloatType<T>)
PYASC_UNARY(Rsqrt, FloatType<T>)
PYASC_UNARY(Reciprocal, FloatType<T>)
PYASC_UNARY(Relu, (IsOneOf<T, half, float, int32_t>))
PYASC_UNARY(Not, BitsType<T>)
#undef PYASC_UNARY

// LeakyRelu, ShiftLeft, ShiftRight (kernel_operator_vec_binary_scalar_intf.h); ShiftRight's level-0 forms
// take roundEn (default false) after the repeat params
#define PYASC_SCALAR2(NAME, RULE, EXTRA)                                                            \
  template <typename T, bool isSetMask = true>                                                      \
  __aicore__ void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const T &scalarValue, \
                       const int32_t &count) {                                                     \
    static_assert(RULE<T>, #NAME ": element type not supported on the Ascend910B");                \
  }                                                                                                 \
  template <typename T, bool isSetMask = true>                                                      \
  __aicore__ void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const T &scalarValue, \
                       uint64_t mask[], const uint8_t repeatTime,                                  \
                       const UnaryRepeatParams &repeatParams EXTRA) {                              \
    static_assert(RULE<T>, #NAME ": element type not supported on the Ascend910B");                \
  }                                                                                                 \
  template <typename T, bool isSetMask = true>                                                      \
  __aicore__ void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const T &scalarValue, \
                       uint64_t mask, const uint8_t repeatTime,                                    \
                       const UnaryRepeatParams &repeatParams EXTRA) {                              \
    static_assert(RULE<T>, #NAME ": element type not supported on the Ascend910B");                \
  }
#define PYASC_NO_EXTRA
#define PYASC_ROUND_EN , bool roundEn = false
PYASC_SCALAR2(LeakyRelu, FloatType, PYASC_NO_EXTRA)
PYASC_SCALAR2(ShiftLeft, ShiftType, PYASC_NO_EXTRA)
PYASC_SCALAR2(ShiftRight, ShiftType, PYASC_ROUND_EN)
#undef PYASC_ROUND_EN
#undef PYASC_NO_EXTRA
#undef PYASC_SCALAR2

template <typename T>
__aicore__ void Duplicate(const LocalTensor<T> &dst, const T &scalarValue, const int32_t &count) {
  static_assert(IsOneOf<T, half, bfloat16_t, float, int16_t, uint16_t, int32_t, uint32_t>,
                "Duplicate: element type not supported on the Ascend910B");
}
template <typename T, bool isSetMask = true>
__aicore__ void Duplicate(const LocalTensor<T> &dst, const T &scalarValue, uint64_t mask[], const uint8_t repeatTime,
                          const uint16_t dstBlockStride, const uint8_t dstRepeatStride) {
  static_assert(IsOneOf<T, half, bfloat16_t, float, int16_t, uint16_t, int32_t, uint32_t>,
                "Duplicate: element type not supported on the Ascend910B");
}
template <typename T, bool isSetMask = true>
__aicore__ void Duplicate(const LocalTensor<T> &dst, const T &scalarValue, uint64_t mask, const uint8_t repeatTime,
                          const uint16_t dstBlockStride, const uint8_t dstRepeatStride) {
  static_assert(IsOneOf<T, half, bfloat16_t, float, int16_t, uint16_t, int32_t, uint32_t>,
                "Duplicate: element type not supported on the Ascend910B");
}

template <typename T, typename U>
__aicore__ void Cast(const LocalTensor<T> &dst, const LocalTensor<U> &src, const RoundMode &roundMode,
                            const uint32_t count);
// level 0 (kernel_operator_vec_vconv_intf.h): mask bit mode, mask count mode
template <typename T, typename U, bool isSetMask = true>
__aicore__ void Cast(const LocalTensor<T> &dst, const LocalTensor<U> &src, const RoundMode &roundMode,
                     const uint64_t mask[], const uint8_t repeatTime, const UnaryRepeatParams &repeatParams);
template <typename T, typename U, bool isSetMask = true>
__aicore__ void Cast(const LocalTensor<T> &dst, const LocalTensor<U> &src, const RoundMode &roundMode,
                     const uint64_t mask, const uint8_t repeatTime, const UnaryRepeatParams &repeatParams);

// ---- quant family: dequantisation, fused casts, bilinear interpolation ------
// (kernel_operator_vec_vconv_intf.h, kernel_operator_vec_binary_intf.h,
// kernel_operator_vec_mulcast_intf.h, kernel_operator_vec_bilinearinterpolation_intf.h)
struct VdeqInfo;
__aicore__ inline void SetDeqScale(half scale) {}
__aicore__ inline void SetDeqScale(float scale, int16_t offset, bool signMode) {}
template <typename T> __aicore__ inline void SetDeqScale(const LocalTensor<T> &vdeq, const VdeqInfo &vdeqInfo) {
  static_assert(IsOneOf<T, uint64_t>, "SetDeqScale: vdeq must be uint64_t");
}
template <typename T, typename U, bool isVecDeq = true, bool halfBlock = true>
__aicore__ void CastDeq(const LocalTensor<T> &dst, const LocalTensor<U> &src, const uint32_t count);
template <typename T, typename U, bool isSetMask = true, bool isVecDeq = true, bool halfBlock = true>
__aicore__ void CastDeq(const LocalTensor<T> &dst, const LocalTensor<U> &src, const uint64_t mask[],
                        uint8_t repeatTime, const UnaryRepeatParams &repeatParams);
template <typename T, typename U, bool isSetMask = true, bool isVecDeq = true, bool halfBlock = true>
__aicore__ void CastDeq(const LocalTensor<T> &dst, const LocalTensor<U> &src, const int32_t mask, uint8_t repeatTime,
                        const UnaryRepeatParams &repeatParams);
__aicore__ inline void AddDeqRelu(const LocalTensor<half> &dst, const LocalTensor<int32_t> &src0,
                                  const LocalTensor<int32_t> &src1, const int32_t &count) {}
__aicore__ inline void AddDeqRelu(const LocalTensor<half> &dst, const LocalTensor<int32_t> &src0,
                                  const LocalTensor<int32_t> &src1, uint64_t mask[], const uint8_t repeatTime,
                                  const BinaryRepeatParams &repeatParams) {}
__aicore__ inline void AddDeqRelu(const LocalTensor<half> &dst, const LocalTensor<int32_t> &src0,
                                  const LocalTensor<int32_t> &src1, uint64_t mask, const uint8_t repeatTime,
                                  const BinaryRepeatParams &repeatParams) {}
/* AddDeqRelu<isSetMask>(...) */
template <bool isSetMask>
__aicore__ inline void AddDeqRelu(const LocalTensor<half> &dst, const LocalTensor<int32_t> &src0,
                                  const LocalTensor<int32_t> &src1, uint64_t mask[], const uint8_t repeatTime,
                                  const BinaryRepeatParams &repeatParams) {}
template <bool isSetMask>
__aicore__ inline void AddDeqRelu(const LocalTensor<half> &dst, const LocalTensor<int32_t> &src0,
                                  const LocalTensor<int32_t> &src1, uint64_t mask, const uint8_t repeatTime,
                                  const BinaryRepeatParams &repeatParams) {}
template <typename T, typename U, bool isSetMask = true>
__aicore__ void MulCast(const LocalTensor<T> &dst, const LocalTensor<U> &src0, const LocalTensor<U> &src1,
                        uint64_t mask, const uint8_t repeatTime, const BinaryRepeatParams &repeatParams);
template <typename T, typename U, bool isSetMask = true>
__aicore__ void MulCast(const LocalTensor<T> &dst, const LocalTensor<U> &src0, const LocalTensor<U> &src1,
                        uint64_t mask[], const uint8_t repeatTime, const BinaryRepeatParams &repeatParams);
template <typename T, typename U>
__aicore__ void MulCast(const LocalTensor<T> &dst, const LocalTensor<U> &src0, const LocalTensor<U> &src1,
                        uint32_t count);
template <typename T, typename U, bool isSetMask = true>
__aicore__ void AddReluCast(const LocalTensor<T> &dst, const LocalTensor<U> &src0, const LocalTensor<U> &src1,
                            uint64_t mask, const uint8_t repeatTime, const BinaryRepeatParams &repeatParams);
template <typename T, typename U, bool isSetMask = true>
__aicore__ void AddReluCast(const LocalTensor<T> &dst, const LocalTensor<U> &src0, const LocalTensor<U> &src1,
                            uint64_t mask[], const uint8_t repeatTime, const BinaryRepeatParams &repeatParams);
template <typename T, typename U>
__aicore__ void AddReluCast(const LocalTensor<T> &dst, const LocalTensor<U> &src0, const LocalTensor<U> &src1,
                            const uint32_t count);
template <typename T, typename U, bool isSetMask = true>
__aicore__ void SubReluCast(const LocalTensor<T> &dst, const LocalTensor<U> &src0, const LocalTensor<U> &src1,
                            uint64_t mask, const uint8_t repeatTime, const BinaryRepeatParams &repeatParams);
template <typename T, typename U, bool isSetMask = true>
__aicore__ void SubReluCast(const LocalTensor<T> &dst, const LocalTensor<U> &src0, const LocalTensor<U> &src1,
                            uint64_t mask[], const uint8_t repeatTime, const BinaryRepeatParams &repeatParams);
template <typename T, typename U>
__aicore__ void SubReluCast(const LocalTensor<T> &dst, const LocalTensor<U> &src0, const LocalTensor<U> &src1,
                            const uint32_t count);
template <typename T>
__aicore__ void BilinearInterpolation(const LocalTensor<T> &dst, const LocalTensor<T> &src0,
                                      const LocalTensor<uint32_t> &src0Offset, const LocalTensor<T> &src1,
                                      uint64_t mask, uint8_t hRepeat, bool repeatMode, uint16_t dstBlkStride,
                                      uint16_t vROffset, uint8_t vRepeat, const LocalTensor<uint8_t> &sharedTmpBuffer);
template <typename T>
__aicore__ void BilinearInterpolation(const LocalTensor<T> &dst, const LocalTensor<T> &src0,
                                      const LocalTensor<uint32_t> &src0Offset, const LocalTensor<T> &src1,
                                      uint64_t mask[], uint8_t hRepeat, bool repeatMode, uint16_t dstBlkStride,
                                      uint16_t vROffset, uint8_t vRepeat, const LocalTensor<uint8_t> &sharedTmpBuffer);

} // namespace AscendC

// ---- the other enums of the Python API (include/asc/enums.def) ---------------
// As the devkit declares them (namespace, scoped or not, underlying type,
// every enumerator of the Ascend910B with its value), from the header each
// comment names; where upstream pyasc's value differs, enums.def says so.

// compiler-provided (Bisheng): no devkit header declares them. Only the
// members pyasc's Python enums have, numbered as upstream pyasc does.
enum class pad_t { PAD_NONE = 0, PAD_MODE1, PAD_MODE2, PAD_MODE3, PAD_MODE4, PAD_MODE5, PAD_MODE6, PAD_MODE7, PAD_MODE8 };
enum QuantMode_t { NoQuant = 0, F322F16, F322BF16, DEQF16, VDEQF16, QF322B8_PRE, VQF322B8_PRE, REQ8, VREQ8 };

// include/adv_api/matmul/matmul_config.h (global namespace)
enum class CubeFormat { ND = 0, NZ, ZN, ZZ, NN, ND_ALIGN, SCALAR, VECTOR, ROW_MAJOR = ND, COLUMN_MAJOR = 8 };
enum class LayoutMode { NONE = 0, BSNGD, SBNGD, BNGS1S2, NORMAL };
enum class BatchMode { NONE = 0, BATCH_LESS_THAN_L1, BATCH_LARGE_THAN_L1, SINGLE_LARGE_THAN_L1 };
enum BatchOutMode { SINGLE_BATCH = 0, MULTI_BATCH, DYNAMIC };
enum class IterateOrder { ORDER_M = 0, ORDER_N, UNDEF };
enum class ScheduleType { INNER_PRODUCT = 0, OUTER_PRODUCT };
enum IterateMode : uint8_t {
  ITERATE_MODE_NORMAL = 0b00000001,
  ITERATE_MODE_ALL = 0b00000010,
  ITERATE_MODE_BATCH = 0b00000100,
  ITERATE_MODE_N_BATCH = 0b00001000,
  ITERATE_MODE_DEFAULT = 0b11111111,
};
enum class MatmulConfigMode { CONFIG_NORM, CONFIG_MDL, CONFIG_SPECIALMDL, CONFIG_IBSHARE };

namespace AscendC {
// include/basic_api/kernel_struct_aipp.h
enum class AippInputFormat : uint8_t { YUV420SP_U8 = 0, XRGB8888_U8 = 1, RGB888_U8 = 4, YUV400_U8 = 9 };
// impl/basic_api/utils/kernel_utils_mode_cpu.h
enum class BlockMode : uint8_t {
  BLOCK_MODE_NORMAL = 0,
  BLOCK_MODE_MATRIX,
  BLOCK_MODE_VECTOR,
  BLOCK_MODE_SMALL_CHANNEL,
  BLOCK_MODE_DEPTHWISE,
};
// impl/basic_api/kernel_reg.h
enum class MaskMode : uint8_t { NORMAL = 0, COUNTER };

// ---- the vector mask register (basic_api/kernel_common.h) ---------------------------------
template <typename T, MaskMode mode = MaskMode::NORMAL>
__aicore__ static inline void SetVectorMask(const uint64_t maskHigh, const uint64_t maskLow) {}
template <typename T, MaskMode mode = MaskMode::NORMAL>
__aicore__ static inline void SetVectorMask(int32_t len) {}
__aicore__ inline void ResetMask() {}
__aicore__ inline void SetMaskCount() {}
__aicore__ inline void SetMaskNorm() {}
enum class CacheLine : uint64_t { SINGLE_CACHE_LINE = 0, ENTIRE_DATA_CACHE };
enum class DcciDst : uint64_t { CACHELINE_ALL = 0, CACHELINE_UB, CACHELINE_OUT, CACHELINE_ATOMIC };
// impl/basic_api/utils/kernel_utils_macros.h
enum class CacheMode { CACHE_MODE_DISABLE = 0, CACHE_MODE_NORMAL = 1, CACHE_MODE_LAST = 2, CACHE_MODE_PERSISTENT = 4 };
enum class CacheRwMode { READ = 1, WRITE = 2, RW = 3 };
// impl/basic_api/utils/kernel_utils_mode.h
enum class CMPMODE : uint8_t { LT = 0, GT, EQ, LE, GE, NE };
enum class SELMODE : uint8_t { VSEL_CMPMASK_SPR = 0, VSEL_TENSOR_SCALAR_MODE, VSEL_TENSOR_TENSOR_MODE };
// ---- compare (kernel_operator_vec_cmpsel_intf.h), the count forms ------------
template <typename T, typename U>
__aicore__ void Compare(const LocalTensor<U> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1,
                        CMPMODE cmpMode, uint32_t count) {
  static_assert(IsOneOf<T, half, float, int32_t>, "Compare: element type not supported on the Ascend910B");
  static_assert(IsOneOf<U, uint8_t, int8_t>, "Compare: dst must be uint8_t or int8_t");
}
template <typename T, typename U>
__aicore__ void Compares(const LocalTensor<U> &dst, const LocalTensor<T> &src0, const T src1Scalar, CMPMODE cmpMode,
                         uint32_t count) {
  static_assert(IsOneOf<T, half, float, int32_t>, "Compares: element type not supported on the Ascend910B");
  static_assert(IsOneOf<U, uint8_t>, "Compares: dst must be uint8_t");
}
enum class DeqScale : uint8_t { DEQ_NONE = 0, DEQ, VDEQ, DEQ8, VDEQ8, DEQ16, VDEQ16 };
enum class ReduceOrder : uint8_t { ORDER_VALUE_INDEX = 0, ORDER_INDEX_VALUE, ORDER_ONLY_VALUE, ORDER_ONLY_INDEX };
// ---- cmpsel family (kernel_operator_vec_cmpsel_intf.h, kernel_operator_vec_reduce_intf.h) ----
template <typename T, typename U, bool isSetMask = true>
__aicore__ void Compare(const LocalTensor<U> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1,
                        CMPMODE cmpMode, const uint64_t mask[], uint8_t repeatTime,
                        const BinaryRepeatParams &repeatParams) {
  static_assert(IsOneOf<T, half, float, int32_t>, "Compare: element type not supported on the Ascend910B");
}
template <typename T, typename U, bool isSetMask = true>
__aicore__ void Compare(const LocalTensor<U> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1,
                        CMPMODE cmpMode, const uint64_t mask, uint8_t repeatTime,
                        const BinaryRepeatParams &repeatParams) {
  static_assert(IsOneOf<T, half, float, int32_t>, "Compare: element type not supported on the Ascend910B");
}
template <typename T, bool isSetMask = true>
__aicore__ void Compare(const LocalTensor<T> &src0, const LocalTensor<T> &src1, CMPMODE cmpMode,
                        const uint64_t mask[], const BinaryRepeatParams &repeatParams) {
  static_assert(FloatType<T>, "Compare: element type not supported on the Ascend910B");
}
template <typename T, bool isSetMask = true>
__aicore__ void Compare(const LocalTensor<T> &src0, const LocalTensor<T> &src1, CMPMODE cmpMode,
                        const uint64_t mask, const BinaryRepeatParams &repeatParams) {
  static_assert(FloatType<T>, "Compare: element type not supported on the Ascend910B");
}
template <typename T, typename U, bool isSetMask = true>
__aicore__ void Compares(const LocalTensor<U> &dst, const LocalTensor<T> &src0, const T src1Scalar, CMPMODE cmpMode,
                         const uint64_t mask[], uint8_t repeatTime, const UnaryRepeatParams &repeatParams) {}
template <typename T, typename U, bool isSetMask = true>
__aicore__ void Compares(const LocalTensor<U> &dst, const LocalTensor<T> &src0, const T src1Scalar, CMPMODE cmpMode,
                         const uint64_t mask, uint8_t repeatTime, const UnaryRepeatParams &repeatParams) {}
template <typename T> __aicore__ void GetCmpMask(const LocalTensor<T> &dst) {}
template <typename T> __aicore__ void SetCmpMask(const LocalTensor<T> &src) {}
template <typename T, typename U, bool isSetMask = true>
__aicore__ void Select(const LocalTensor<T> &dst, const LocalTensor<U> &selMask, const LocalTensor<T> &src0,
                       const LocalTensor<T> &src1, SELMODE selMode, uint64_t mask[], uint8_t repeatTime,
                       const BinaryRepeatParams &repeatParams) {
  static_assert(FloatType<T>, "Select: element type not supported on the Ascend910B");
}
template <typename T, typename U, bool isSetMask = true>
__aicore__ void Select(const LocalTensor<T> &dst, const LocalTensor<U> &selMask, const LocalTensor<T> &src0,
                       const LocalTensor<T> &src1, SELMODE selMode, uint64_t mask, uint8_t repeatTime,
                       const BinaryRepeatParams &repeatParams) {
  static_assert(FloatType<T>, "Select: element type not supported on the Ascend910B");
}
template <typename T, SELMODE selMode>
__aicore__ void Select(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1,
                       uint8_t repeatTime, const BinaryRepeatParams &repeatParams) {}
template <typename T, typename U>
__aicore__ void Select(const LocalTensor<T> &dst, const LocalTensor<U> &selMask, const LocalTensor<T> &src0,
                       uint8_t repeatTime, const BinaryRepeatParams &repeatParams) {}
template <typename T, typename U>
__aicore__ void Select(const LocalTensor<T> &dst, const LocalTensor<U> &selMask, const LocalTensor<T> &src0,
                       const LocalTensor<T> &src1, SELMODE selMode, uint32_t count) {
  static_assert(FloatType<T>, "Select: element type not supported on the Ascend910B");
}
template <typename T, typename U, bool isSetMask = true>
__aicore__ void Select(const LocalTensor<T> &dst, const LocalTensor<U> &selMask, const LocalTensor<T> &src0, T src1,
                       SELMODE selMode, uint64_t mask[], uint8_t repeatTime, const BinaryRepeatParams &repeatParams) {}
template <typename T, typename U, bool isSetMask = true>
__aicore__ void Select(const LocalTensor<T> &dst, const LocalTensor<U> &selMask, const LocalTensor<T> &src0, T src1,
                       SELMODE selMode, uint64_t mask, uint8_t repeatTime, const BinaryRepeatParams &repeatParams) {}
template <typename T, typename U>
__aicore__ void Select(const LocalTensor<T> &dst, const LocalTensor<U> &selMask, const LocalTensor<T> &src0, T src1,
                       SELMODE selMode, uint32_t count) {}
#define PYASC_WHOLE(NAME, EXTRA, ...)                                                                            \
  template <typename T, bool isSetMask = true>                                                                 \
  __aicore__ void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const int32_t mask,                \
                       const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,        \
                       const int32_t srcRepStride EXTRA) {                                                      \
    static_assert(FloatType<T>, #NAME ": element type not supported on the Ascend910B");                      \
  }                                                                                                             \
  template <typename T, bool isSetMask = true>                                                                 \
  __aicore__ void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint64_t mask[],             \
                       const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,        \
                       const int32_t srcRepStride EXTRA) {                                                      \
    static_assert(FloatType<T>, #NAME ": element type not supported on the Ascend910B");                      \
  }
#define PYASC_ORDER , ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX
PYASC_WHOLE(WholeReduceMax, PYASC_ORDER)
PYASC_WHOLE(WholeReduceMin, PYASC_ORDER)
PYASC_WHOLE(WholeReduceSum, )
#undef PYASC_WHOLE
#undef PYASC_ORDER
#define PYASC_BYREP(NAME)                                                                                        \
  template <typename T, bool isSetMask = true>                                                                 \
  __aicore__ void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const int32_t repeatTime,          \
                       const int32_t mask, const int32_t dstRepStride, const int32_t srcBlkStride,              \
                       const int32_t srcRepStride) {                                                            \
    static_assert(FloatType<T>, #NAME ": element type not supported on the Ascend910B");                      \
  }                                                                                                             \
  template <typename T, bool isSetMask = true>                                                                 \
  __aicore__ void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const int32_t repeatTime,          \
                       const uint64_t mask[], const int32_t dstRepStride, const int32_t srcBlkStride,           \
                       const int32_t srcRepStride) {                                                            \
    static_assert(FloatType<T>, #NAME ": element type not supported on the Ascend910B");                      \
  }
PYASC_BYREP(BlockReduceMax)
PYASC_BYREP(BlockReduceMin)
PYASC_BYREP(BlockReduceSum)
PYASC_BYREP(PairReduceSum)
#undef PYASC_BYREP
#define PYASC_RED0(NAME, EXTRA)                                                                                  \
  template <typename T>                                                                                         \
  __aicore__ void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<T> &sharedTmpBuffer, \
                       const int32_t mask, const int32_t repeatTime, const int32_t srcRepStride EXTRA) {        \
    static_assert(FloatType<T>, #NAME ": element type not supported on the Ascend910B");                      \
  }                                                                                                             \
  template <typename T>                                                                                         \
  __aicore__ void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<T> &sharedTmpBuffer, \
                       const uint64_t mask[], const int32_t repeatTime, const int32_t srcRepStride EXTRA) {     \
    static_assert(FloatType<T>, #NAME ": element type not supported on the Ascend910B");                      \
  }
#define PYASC_CAL , bool calIndex = 0
PYASC_RED0(ReduceMax, PYASC_CAL)
PYASC_RED0(ReduceMin, PYASC_CAL)
PYASC_RED0(ReduceSum, )
#undef PYASC_RED0
#undef PYASC_CAL
template <typename T, bool isSetMask = true>
__aicore__ void RepeatReduceSum(const LocalTensor<T> &dst, const LocalTensor<T> &src, const int32_t repeatTime,
                                const int32_t mask, const int32_t dstBlkStride, const int32_t srcBlkStride,
                                const int32_t dstRepStride, const int32_t srcRepStride) {
  static_assert(FloatType<T>, "RepeatReduceSum: element type not supported on the Ascend910B");
}
// include/basic_api/kernel_struct_fixpipe.h
enum class CO2Layout : uint8_t { NZ = 0, ROW_MAJOR, COLUMN_MAJOR };
// include/basic_api/kernel_struct_data_copy.h
enum class DataFormat : uint8_t { ND = 0, NZ, NCHW, NC1HWC0, NHWC, NCDHW, NDC1HWC0, FRACTAL_Z_3D };
// include/basic_api/kernel_struct_gather.h (the default mode of the Ascend910B)
enum class GatherMaskMode : uint8_t { VERSION_V1 = 0, VERSION_V2 = 1 };
const GatherMaskMode defaultGatherMaskMode = GatherMaskMode::VERSION_V2;
// impl/utils/common_types.h
enum class Hardware : uint8_t { GM, UB, L1, L0A, L0B, L0C, BIAS, FIXBUF, MAX };
// impl/basic_api/kernel_event.h
enum class MemDsbT : uint8_t { ALL = 0, DDR, UB, SEQ };
// include/basic_api/kernel_struct_transpose.h
enum class TransposeType : uint8_t {
  TRANSPOSE_TYPE_NONE,
  TRANSPOSE_NZ2ND_0213,
  TRANSPOSE_NZ2NZ_0213,
  TRANSPOSE_NZ2NZ_012_WITH_N,
  TRANSPOSE_NZ2ND_012_WITH_N,
  TRANSPOSE_NZ2ND_012_WITHOUT_N,
  TRANSPOSE_NZ2NZ_012_WITHOUT_N,
  TRANSPOSE_ND2ND_ONLY,
  TRANSPOSE_ND_UB_GM,
  TRANSPOSE_GRAD_ND_UB_GM,
  TRANSPOSE_ND2ND_B16,
  TRANSPOSE_NCHW2NHWC,
  TRANSPOSE_NHWC2NCHW,
};
// include/basic_api/kernel_operator_common_intf.h
enum class AtomicDtype { ATOMIC_NONE = 0, ATOMIC_F32, ATOMIC_F16, ATOMIC_S16, ATOMIC_S32, ATOMIC_S8, ATOMIC_BF16 };
enum class AtomicOp { ATOMIC_SUM = 0 };
// impl/adv_api/detail/matmul/policy/matmul_policy.h: Matmul's policies (class templates)
namespace Impl {
namespace Detail {
template <const auto &MM_CFG, typename IMPL, typename A_TYPE, typename B_TYPE, typename C_TYPE, typename BIAS_TYPE>
struct MatmulPolicy;
template <const auto &MM_CFG, typename IMPL, typename A_TYPE, typename B_TYPE, typename C_TYPE, typename BIAS_TYPE>
struct NBuffer33MatmulPolicy;
template <const auto &MM_CFG, typename IMPL, typename A_TYPE, typename B_TYPE, typename C_TYPE, typename BIAS_TYPE>
struct TrianUpperMatmulPolicy;
template <const auto &MM_CFG, typename IMPL, typename A_TYPE, typename B_TYPE, typename C_TYPE, typename BIAS_TYPE>
struct TrianLowerMatmulPolicy;
} // namespace Detail
} // namespace Impl
} // namespace AscendC

// ---- parameter structs (include/asc/structs.def) ------------------------------------
// As the devkit declares them for the Ascend910B (arch 2201): every member
// with its type and default, every constructor, the template parameters;
// members pyasc does not set are declared too, so that a misspelt member
// fails here. Headers: include/basic_api/kernel_struct_*.h, kernel_tensor.h
// (ShapeInfo); the array lengths are the devkit's constants.
namespace AscendC {
constexpr uint8_t K_MAX_SHAPE_DIM = 8;
constexpr uint8_t PAD_SIZE = 4;
constexpr uint8_t MRG_SORT_ELEMENT_LEN = 4;
constexpr uint8_t VDEQ_TENSOR_SIZE = 16;

struct BrcbRepeatParams {
  __aicore__ BrcbRepeatParams() {}
  __aicore__ BrcbRepeatParams(const uint16_t dstBlkStrideIn, const uint16_t dstRepStrideIn);
  uint32_t blockNumber = 8;
  uint16_t dstRepStride = 8;
  uint16_t dstBlkStride = 1;
  uint8_t src0BlkStride = 1;
  uint8_t src1BlkStride = 1;
  uint8_t src0RepStride = 8;
  uint8_t src1RepStride = 8;
  bool repeatStrideMode = false;
  bool strideSizeMode = false;
};

struct GatherRepeatParams {
  __aicore__ GatherRepeatParams() {}
  __aicore__ GatherRepeatParams(const uint8_t dstBlkStrideIn, const uint8_t dstRepStrideIn);
  uint32_t blockNumber = 8;
  uint16_t dstRepStride = 8;
  uint8_t dstBlkStride = 1;
  uint8_t src0BlkStride = 1;
  uint8_t src1BlkStride = 1;
  uint8_t src0RepStride = 8;
  uint8_t src1RepStride = 8;
  bool repeatStrideMode = false;
  bool strideSizeMode = false;
};

struct GatherMaskParams {
  __aicore__ GatherMaskParams() {}
  __aicore__ GatherMaskParams(const uint8_t src0BlockStrideIn, const uint16_t repeatTimesIn,
                              const uint16_t src0RepeatStrideIn, const uint8_t src1RepeatStrideIn);
  uint8_t src0BlockStride = 1;
  uint16_t repeatTimes = 0;
  uint16_t src0RepeatStride = 8;
  uint8_t src1RepeatStride = 8;
};

struct TransDataTo5HDParams {
  constexpr __aicore__ TransDataTo5HDParams() = default;
  constexpr __aicore__ TransDataTo5HDParams(const bool dstHighHalfIn, const bool srcHighHalfIn,
                                            const uint8_t repeatTimesIn, const uint16_t dstRepStrideIn,
                                            const uint16_t srcRepStrideIn)
      : dstHighHalf(dstHighHalfIn), srcHighHalf(srcHighHalfIn), repeatTimes(repeatTimesIn),
        dstRepStride(dstRepStrideIn), srcRepStride(srcRepStrideIn) {}
  bool dstHighHalf = false;
  bool srcHighHalf = false;
  uint8_t repeatTimes = 1;
  uint16_t dstRepStride = 0;
  uint16_t srcRepStride = 0;
};

struct TransposeParamsExt {
  constexpr __aicore__ TransposeParamsExt() = default;
  constexpr __aicore__ TransposeParamsExt(const uint16_t nSizeIn, const uint16_t cSizeIn, const uint16_t hSizeIn,
                                          const uint16_t wSizeIn, const TransposeType transposeTypeIn)
      : nSize(nSizeIn), cSize(cSizeIn), hSize(hSizeIn), wSize(wSizeIn), transposeType(transposeTypeIn) {}
  uint16_t nSize = 0;
  uint16_t cSize = 0;
  uint16_t hSize = 0;
  uint16_t wSize = 0;
  TransposeType transposeType = TransposeType::TRANSPOSE_ND2ND_B16;
};

// ---- family gather: broadcast, gather, transposes (kernel_operator_vec_brcb_intf.h,
// _gather_intf.h, _gather_mask_intf.h, _transpose_intf.h), the Ascend910B's element types
template <typename T>
__aicore__ void Brcb(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const uint8_t repeatTime,
                     const BrcbRepeatParams &repeatParams) {
  static_assert(IsOneOf<T, int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t, float>,
                "Brcb: element type not supported on the Ascend910B");
}
template <typename T>
__aicore__ void Gatherb(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<uint32_t> &offset,
                        const uint8_t repeatTime, const GatherRepeatParams &repeatParams) {
  static_assert(IsOneOf<T, uint16_t, uint32_t>, "Gatherb: element type not supported on the Ascend910B");
}
template <typename T>
__aicore__ void Gather(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<uint32_t> &srcOffset,
                       const uint32_t srcBaseAddr, const uint32_t count) {
  static_assert(IsOneOf<T, int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t, float>,
                "Gather: element type not supported on the Ascend910B");
}
template <typename T>
__aicore__ void Gather(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<uint32_t> &srcOffset,
                       const uint32_t srcBaseAddr, const uint64_t mask[], const uint8_t repeatTime,
                       const uint16_t dstRepStride) {
  static_assert(IsOneOf<T, int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t, float>,
                "Gather: element type not supported on the Ascend910B");
}
template <typename T>
__aicore__ void Gather(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<uint32_t> &srcOffset,
                       const uint32_t srcBaseAddr, const uint64_t mask, const uint8_t repeatTime,
                       const uint16_t dstRepStride) {
  static_assert(IsOneOf<T, int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t, float>,
                "Gather: element type not supported on the Ascend910B");
}
template <typename T, typename U, GatherMaskMode mode = defaultGatherMaskMode>
__aicore__ void GatherMask(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<U> &src1Pattern,
                           const bool reduceMode, const uint32_t mask, const GatherMaskParams &gatherMaskParams,
                           uint64_t &rsvdCnt) {
  static_assert((IsOneOf<T, half, bfloat16_t, int16_t, uint16_t> && IsOneOf<U, uint16_t>) ||
                    (IsOneOf<T, float, int32_t, uint32_t> && IsOneOf<U, uint32_t>),
                "GatherMask: src1Pattern must be uint16_t for 2-byte and uint32_t for 4-byte data");
}
template <typename T, GatherMaskMode mode = defaultGatherMaskMode>
__aicore__ void GatherMask(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const uint8_t src1Pattern,
                           const bool reduceMode, const uint32_t mask, const GatherMaskParams &gatherMaskParams,
                           uint64_t &rsvdCnt) {
  static_assert(IsOneOf<T, int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t, float>,
                "GatherMask: element type not supported on the Ascend910B");
}
__aicore__ inline int64_t GetGatherMaskRemainCount() { return 0; }
template <typename T> __aicore__ void Transpose(const LocalTensor<T> &dst, const LocalTensor<T> &src) {
  static_assert(IsOneOf<T, int16_t, uint16_t, half>, "Transpose: element type not supported on the Ascend910B");
}
template <typename T>
__aicore__ void Transpose(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                          const LocalTensor<uint8_t> &sharedTmpBuffer, const TransposeParamsExt &transposeParams) {
  static_assert(IsOneOf<T, int8_t, uint8_t, int16_t, uint16_t, half, int32_t, uint32_t, float>,
                "Transpose: element type not supported on the Ascend910B");
}
constexpr uint32_t NCHW_CONV_ADDR_LIST_SIZE = 16;
template <typename T>
__aicore__ void TransDataTo5HD(const LocalTensor<T> (&dstList)[NCHW_CONV_ADDR_LIST_SIZE],
                               const LocalTensor<T> (&srcList)[NCHW_CONV_ADDR_LIST_SIZE],
                               const TransDataTo5HDParams &nchwconvParams) {
  static_assert(IsOneOf<T, int8_t, uint8_t, int16_t, uint16_t, half, int32_t, uint32_t, float>,
                "TransDataTo5HD: element type not supported on the Ascend910B");
}
template <typename T>
__aicore__ void TransDataTo5HD(uint64_t dstList[NCHW_CONV_ADDR_LIST_SIZE], uint64_t srcList[NCHW_CONV_ADDR_LIST_SIZE],
                               const TransDataTo5HDParams &nchwconvParams) {
  static_assert(IsOneOf<T, int8_t, uint8_t, int16_t, uint16_t, half, int32_t, uint32_t, float>,
                "TransDataTo5HD: element type not supported on the Ascend910B");
}
template <typename T>
__aicore__ void TransDataTo5HD(const LocalTensor<uint64_t> &dst, const LocalTensor<uint64_t> &src,
                               const TransDataTo5HDParams &nchwconvParams) {
  static_assert(IsOneOf<T, int8_t, uint8_t, int16_t, uint16_t, half, int32_t, uint32_t, float>,
                "TransDataTo5HD: element type not supported on the Ascend910B");
}

struct MrgSort4Info {
  __aicore__ MrgSort4Info() {}
  __aicore__ MrgSort4Info(const uint16_t elementLengthsIn[MRG_SORT_ELEMENT_LEN], const bool ifExhaustedSuspensionIn,
                          const uint16_t validBitIn, const uint16_t repeatTimesIn);
  uint16_t elementLengths[MRG_SORT_ELEMENT_LEN] = {0};
  bool ifExhaustedSuspension = false;
  uint16_t validBit = 0;
  uint8_t repeatTimes = 1;
};

struct VdeqInfo {
  __aicore__ VdeqInfo() {}
  __aicore__ VdeqInfo(const float vdeqScaleIn[VDEQ_TENSOR_SIZE], const int16_t vdeqOffsetIn[VDEQ_TENSOR_SIZE],
                      const bool vdeqSignModeIn[VDEQ_TENSOR_SIZE]);
  float vdeqScale[VDEQ_TENSOR_SIZE] = {0};
  int16_t vdeqOffset[VDEQ_TENSOR_SIZE] = {0};
  bool vdeqSignMode[VDEQ_TENSOR_SIZE] = {0};
};

// DataCopyParams: srcGap/dstGap share their storage with the deprecated srcStride/dstStride
struct DataCopyParams {
  __aicore__ DataCopyParams() {}
  __aicore__ DataCopyParams(const uint16_t count, const uint16_t len, const uint16_t srcStrideIn,
                            const uint16_t dstStrideIn);
  uint16_t blockCount = 1;
  uint16_t blockLen = 0;
  union {
    uint16_t srcGap = 0;
    uint16_t srcStride;
  };
  union {
    uint16_t dstGap = 0;
    uint16_t dstStride;
  };
};

struct DataCopyEnhancedParams {
  __aicore__ DataCopyEnhancedParams() {}
  __aicore__ DataCopyEnhancedParams(const BlockMode blockModeIn, const DeqScale deqScaleIn, const uint64_t deqValueIn,
                                    const uint8_t sidStoreModeIn, const bool isReluIn, const pad_t padModeIn,
                                    const uint64_t padValueIn);
  BlockMode blockMode = BlockMode::BLOCK_MODE_NORMAL;
  DeqScale deqScale = DeqScale::DEQ_NONE;
  uint64_t deqValue = 0;
  uint8_t sidStoreMode = 0;
  bool isRelu = false;
  pad_t padMode = pad_t::PAD_NONE;
  uint64_t padValue = 0;
  uint64_t deqTensorAddr = 0;
};

struct DataCopyCO12DstParams {
  __aicore__ DataCopyCO12DstParams() {}
  __aicore__ DataCopyCO12DstParams(const uint16_t nSizeIn, const uint16_t mSizeIn, const uint32_t dstStrideIn,
                                   const uint16_t srcStrideIn, const QuantMode_t quantPreIn, const uint8_t reluPreIn,
                                   const bool channelSplitIn, const bool nz2ndEnIn);
  uint8_t sid = 0;
  uint16_t nSize = 0;
  uint16_t mSize = 0;
  uint32_t dstStride = 0;
  uint16_t srcStride = 0;
  uint8_t unitFlag = 0;
  uint8_t clipReluPre = 0;
  uint8_t eltWiseOp = 0;
  QuantMode_t quantPre = QuantMode_t::NoQuant;
  uint8_t reluPre = 0;
  bool channelSplit = false;
  bool nz2ndEn = false;
};

struct DataCopyPadParams {
  __aicore__ DataCopyPadParams() {}
  __aicore__ DataCopyPadParams(const bool isPadValue, const uint8_t leftPadValue, const uint8_t rightPadValue,
                               const uint64_t padValue);
  bool isPad = false;
  uint8_t leftPadding = 0;
  uint8_t rightPadding = 0;
  uint64_t paddingValue = 0;
};

struct DataCopyExtParams {
  __aicore__ DataCopyExtParams() {}
  __aicore__ DataCopyExtParams(const uint16_t count, const uint32_t len, const uint32_t srcStrideIn,
                               const uint32_t dstStrideIn, const uint32_t rsvIn);
  uint16_t blockCount = 1;
  uint32_t blockLen = 0;
  uint32_t srcStride = 0;
  uint32_t dstStride = 0;
  uint32_t rsv = 0;
};

template <typename T> struct DataCopyPadExtParams {
  __aicore__ DataCopyPadExtParams() {}
  __aicore__ DataCopyPadExtParams(const bool isPadValue, const uint8_t leftPadValue, const uint8_t rightPadValue,
                                  T padValue);
  bool isPad = false;
  uint8_t leftPadding = 0;
  uint8_t rightPadding = 0;
  T paddingValue = 0;
};

struct Nd2NzParams {
  __aicore__ Nd2NzParams() {}
  __aicore__ Nd2NzParams(const uint16_t ndNumIn, const uint16_t nValueIn, const uint16_t dValueIn,
                         const uint16_t srcNdMatrixStrideIn, const uint16_t srcDValueIn, const uint16_t dstNzC0StrideIn,
                         const uint16_t dstNzNStrideIn, const uint16_t dstNzMatrixStrideIn);
  uint16_t ndNum = 0;
  uint16_t nValue = 0;
  uint16_t dValue = 0;
  uint16_t srcNdMatrixStride = 0;
  uint16_t srcDValue = 0;
  uint16_t dstNzC0Stride = 0;
  uint16_t dstNzNStride = 0;
  uint16_t dstNzMatrixStride = 0;
};

struct Nz2NdParamsFull {
  __aicore__ Nz2NdParamsFull() {}
  __aicore__ Nz2NdParamsFull(const uint16_t ndNumIn, const uint16_t nValueIn, const uint16_t dValueIn,
                             const uint16_t srcNdMatrixStrideIn, const uint16_t srcNStrideIn,
                             const uint16_t dstDStrideIn, const uint16_t dstNdMatrixStrideIn);
  uint16_t ndNum = 1;
  uint16_t nValue = 0;
  uint16_t dValue = 0;
  uint16_t srcNdMatrixStride = 1;
  uint16_t srcNStride = 0;
  uint16_t dstDStride = 0;
  uint16_t dstNdMatrixStride = 1;
};

struct SliceInfo {
  __aicore__ SliceInfo() {}
  __aicore__ SliceInfo(const uint32_t startIndexIn, const uint32_t endIndexIn, const uint32_t strideIn,
                       const uint32_t burstLenIn, const uint32_t shapeValueIn = 0);
  uint32_t startIndex = 0;
  uint32_t endIndex = 32 - 1; // ONE_BLK_SIZE - 1
  uint32_t stride = 0;
  uint32_t burstLen = 32; // ONE_BLK_SIZE
  uint32_t shapeValue = 0;
};

// ---- family: slice. DataCopy with SliceInfo (kernel_operator_data_copy_intf.h) ----
template <typename T>
__aicore__ void DataCopy(const LocalTensor<T> &dst, const GlobalTensor<T> &src, const SliceInfo dstSliceInfo[],
                         const SliceInfo srcSliceInfo[], const uint32_t dimValue = 1);
template <typename T>
__aicore__ void DataCopy(const GlobalTensor<T> &dst, const LocalTensor<T> &src, const SliceInfo dstSliceInfo[],
                         const SliceInfo srcSliceInfo[], const uint32_t dimValue = 1);

struct CopyRepeatParams {
  __aicore__ CopyRepeatParams() {}
  __aicore__ CopyRepeatParams(const uint16_t dstStrideIn, const uint16_t srcStrideIn, uint16_t dstRepeatSizeIn,
                              uint16_t srcRepeatSizeIn);
  uint16_t dstStride = 0;
  uint16_t srcStride = 0;
  uint16_t dstRepeatSize = 8;
  uint16_t srcRepeatSize = 8;
};

// kernel_tensor.h
struct ShapeInfo {
public:
  __aicore__ ShapeInfo() {}
  __aicore__ ShapeInfo(const uint8_t inputShapeDim, const uint32_t inputShape[], const uint8_t inputOriginalShapeDim,
                       const uint32_t inputOriginalShape[], const DataFormat inputFormat);
  __aicore__ ShapeInfo(const uint8_t inputShapeDim, const uint32_t inputShape[], const DataFormat inputFormat);
  __aicore__ ShapeInfo(const uint8_t inputShapeDim, const uint32_t inputShape[]);
  uint8_t shapeDim;
  uint8_t originalShapeDim;
  uint32_t shape[K_MAX_SHAPE_DIM];
  uint32_t originalShape[K_MAX_SHAPE_DIM];
  DataFormat dataFormat;
};
__aicore__ uint64_t GetShapeSize(const ShapeInfo &shapeInfo);

struct MmadParams {
  __aicore__ MmadParams() {}
  __aicore__ MmadParams(const uint16_t mIn, const uint16_t nIn, const uint16_t kIn, const bool isBiasIn,
                        const int32_t fmOffsetIn, const bool enSsparseIn, const bool enWinogradAIn,
                        const bool enWinogradBIn);
  __aicore__ MmadParams(const uint16_t mIn, const uint16_t nIn, const uint16_t kIn, const uint8_t unitFlagIn,
                        const bool cmatrixSourceIn, const bool cmatrixInitValIn);
  uint16_t m = 0;
  uint16_t n = 0;
  uint16_t k = 0;
  bool isBias = false;
  int32_t fmOffset = 0;
  bool enSsparse = false;
  bool enWinogradA = false;
  bool enWinogradB = false;
  uint8_t unitFlag = 0;
  bool kDirectionAlign = false;
  bool cmatrixSource = false;
  bool cmatrixInitVal = true;
};

struct LoadData2DParams {
  __aicore__ LoadData2DParams() {}
  __aicore__ LoadData2DParams(const uint16_t startIndexIn, const uint8_t repeatTimesIn, const uint16_t srcStrideIn,
                              const uint8_t sidIn, const uint16_t dstGapIn, const bool ifTransposeIn,
                              const uint8_t addrModeIn);
  uint16_t startIndex = 0;
  uint16_t dstGap = 0;
  uint16_t srcStride = 0;
  bool ifTranspose = 0;
  uint8_t repeatTimes = 0;
  uint8_t sid = 0;
  uint8_t addrMode = 0;
};

struct LoadData2DParamsV2 {
  __aicore__ LoadData2DParamsV2() {}
  __aicore__ LoadData2DParamsV2(const uint32_t mStartPositionIn, const uint32_t kStartPositionIn,
                                const uint16_t mStepIn, const uint16_t kStepIn, const int32_t srcStrideIn,
                                const uint16_t dstStrideIn, const bool ifTransposeIn, const uint8_t sidIn);
  uint32_t mStartPosition = 0;
  uint32_t kStartPosition = 0;
  uint16_t mStep = 0;
  uint16_t kStep = 0;
  int32_t srcStride = 0;
  uint16_t dstStride = 0;
  bool ifTranspose = false;
  uint8_t sid = 0;
};

struct LoadData2dTransposeParams {
  __aicore__ LoadData2dTransposeParams() {}
  __aicore__ LoadData2dTransposeParams(const uint16_t startIndexIn, const uint8_t repeatTimesIn,
                                       const uint16_t srcStrideIn, const uint16_t dstGapIn,
                                       const uint16_t dstfracGapIn, const uint8_t addrModeIn);
  __aicore__ LoadData2dTransposeParams(const uint16_t startIndexIn, const uint8_t repeatTimesIn,
                                       const uint16_t srcStrideIn, const uint16_t dstGapIn,
                                       const uint16_t dstfracGapIn);
  uint16_t startIndex = 0;
  uint8_t repeatTimes = 0;
  uint16_t srcStride = 0;
  uint16_t dstGap = 0;
  uint16_t dstFracGap = 0;
  uint8_t addrMode = 0;
};

struct LoadData2dTransposeParamsV2 {
  __aicore__ LoadData2dTransposeParamsV2() {}
  __aicore__ LoadData2dTransposeParamsV2(const uint16_t startIndexIn, const uint8_t repeatTimesIn,
                                         const uint16_t srcStrideIn, const uint16_t dstGapIn,
                                         const uint16_t dstFracGapIn, const uint16_t srcFracGapIn);
  __aicore__ LoadData2dTransposeParamsV2(const uint16_t startIndexIn, const uint8_t repeatTimesIn,
                                         const uint16_t srcStrideIn, const uint16_t dstGapIn,
                                         const uint16_t dstFracGapIn, const uint16_t srcFracGapIn,
                                         const uint8_t addrModeIn);
  uint16_t startIndex = 0;
  uint8_t repeatTimes = 0;
  uint16_t srcStride = 0;
  uint16_t dstGap = 0;
  uint16_t dstFracGap = 0;
  uint16_t srcFracGap = 0;
  uint8_t addrMode = 0;
};

template <typename T> struct LoadData3DParamsV1 {
  __aicore__ LoadData3DParamsV1();
  __aicore__ LoadData3DParamsV1(const uint8_t padListIn[PAD_SIZE], const uint16_t l1HIn, const uint16_t l1WIn,
                                const uint16_t c1IndexIn, const uint8_t fetchFilterWIn, const uint8_t fetchFilterHIn,
                                const int16_t leftTopWIn, const int16_t leftTopHIn, const uint8_t strideWIn,
                                const uint8_t strideHIn, const uint8_t filterWIn, const uint8_t filterHIn,
                                const uint8_t dilationFilterWIn, const uint8_t dilationFilterHIn,
                                const uint8_t jumpStrideIn, const uint8_t repeatModeIn, const uint8_t repeatTimeIn,
                                const uint8_t cSizeIn, const T padValueIn);
  uint8_t padList[PAD_SIZE] = {0};
  uint8_t strideW = 0;
  uint8_t strideH = 0;
  uint8_t filterW = 0;
  uint8_t filterH = 0;
  uint8_t dilationFilterW = 0;
  uint8_t dilationFilterH = 0;
  uint8_t jumpStride = 0;
  uint8_t repeatMode = 0;
  uint8_t repeatTime = 0;
  uint8_t cSize = 0;
  T padValue = 0;
  uint8_t fetchFilterW = 0;
  uint8_t fetchFilterH = 0;
  uint16_t l1H = 0;
  uint16_t l1W = 0;
  uint16_t c1Index = 0;
  int16_t leftTopW = 0;
  int16_t leftTopH = 0;
};

template <typename T> struct LoadData3DParamsV2 {
  __aicore__ LoadData3DParamsV2();
  __aicore__ LoadData3DParamsV2(const uint8_t padListIn[PAD_SIZE], const uint16_t l1HIn, const uint16_t l1WIn,
                                const uint16_t channelSizeIn, const uint16_t kExtensionIn, const uint16_t mExtensionIn,
                                const uint16_t kStartPtIn, const uint16_t mStartPtIn, const uint8_t strideWIn,
                                const uint8_t strideHIn, const uint8_t filterWIn, const uint8_t filterHIn,
                                const uint8_t dilationFilterWIn, const uint8_t dilationFilterHIn,
                                const bool enTransposeIn, const bool enSmallKIn, const T padValueIn);
  __aicore__ LoadData3DParamsV2(const uint8_t padListIn[PAD_SIZE], const uint16_t l1HIn, const uint16_t l1WIn,
                                const uint16_t channelSizeIn, const uint16_t kExtensionIn, const uint16_t mExtensionIn,
                                const uint16_t kStartPtIn, const uint16_t mStartPtIn, const uint8_t strideWIn,
                                const uint8_t strideHIn, const uint8_t filterWIn, const uint8_t filterHIn,
                                const uint8_t dilationFilterWIn, const uint8_t dilationFilterHIn,
                                const bool enTransposeIn, const bool enSmallKIn, const T padValueIn,
                                const bool filterSizeWIn, const bool filterSizeHIn, const bool fMatrixCtrlIn);
  uint8_t padList[PAD_SIZE] = {0};
  uint16_t l1H = 0;
  uint16_t l1W = 0;
  uint16_t channelSize = 0;
  uint16_t kExtension = 0;
  uint16_t mExtension = 0;
  uint16_t kStartPt = 0;
  uint16_t mStartPt = 0;
  uint8_t strideW = 1;
  uint8_t strideH = 1;
  uint8_t filterW = 1;
  uint8_t filterH = 1;
  uint8_t dilationFilterW = 1;
  uint8_t dilationFilterH = 1;
  bool enTranspose = false;
  bool enSmallK = false;
  T padValue = 0;
  bool filterSizeW = false;
  bool filterSizeH = false;
  bool fMatrixCtrl = false;
};

struct LoadData3DParamsV2Pro {
  __aicore__ LoadData3DParamsV2Pro();
  __aicore__ LoadData3DParamsV2Pro(const uint16_t channelSizeIn, const bool enTransposeIn, const bool enSmallKIn,
                                   const bool filterSizeWIn, const bool filterSizeHIn, const bool fMatrixCtrlIn,
                                   const uint64_t extConfigIn, const uint64_t filterConfigIn);
  uint16_t channelSize = 0;
  bool enTranspose = false;
  bool enSmallK = false;
  bool filterSizeW = false;
  bool filterSizeH = false;
  bool fMatrixCtrl = false;
  uint64_t extConfig = 0;
  uint64_t filterConfig = 0X10101010101;
};

struct LoadDataRepeatParam {
  __aicore__ LoadDataRepeatParam() {}
  __aicore__ LoadDataRepeatParam(const uint16_t repeatStrideIn, const uint8_t repeatTimeIn,
                                 const uint8_t repeatModeIn);
  uint16_t repeatStride = 0;
  uint8_t repeatTime = 1;
  uint8_t repeatMode = 0;
  uint8_t reserved = 0;
};

struct LoadImageToLocalParams {
  __aicore__ LoadImageToLocalParams() {}
  __aicore__ LoadImageToLocalParams(const uint16_t horizSizeIn, const uint16_t vertSizeIn,
                                    const uint16_t horizStartPosIn, const uint16_t vertStartPosIn,
                                    const uint16_t srcHorizSizeIn, const uint8_t topPadSizeIn,
                                    const uint8_t botPadSizeIn, const uint16_t leftPadSizeIn,
                                    const uint16_t rightPadSizeIn);
  uint16_t horizSize = 0;
  uint16_t vertSize = 0;
  uint16_t horizStartPos = 0;
  uint16_t vertStartPos = 0;
  uint16_t srcHorizSize = 0;
  uint8_t topPadSize = 0;
  uint8_t botPadSize = 0;
  uint16_t leftPadSize = 0;
  uint16_t rightPadSize = 0;
  uint8_t sid = 0;
};

struct CheckLocalMemoryIAParam {
  __aicore__ CheckLocalMemoryIAParam() {}
  __aicore__ CheckLocalMemoryIAParam(const uint8_t enableBitIn, const uint32_t startAddrIn, const uint32_t endAddrIn,
                                     const bool isScalarReadIn, const bool isScalarWriteIn,
                                     const bool isVectorReadIn, const bool isVectorWriteIn, const bool isMteReadIn,
                                     const bool isMteWriteIn, const bool isEnableIn);
  uint8_t enableBit = 0;
  uint32_t startAddr = 0;
  uint32_t endAddr = 0;
  bool isScalarRead = false;
  bool isScalarWrite = false;
  bool isVectorRead = false;
  bool isVectorWrite = false;
  bool isMteRead = false;
  bool isMteWrite = false;
  bool isEnable = false;
  uint32_t reserved = 0;
};

template <typename T> struct InitConstValueParams {
  __aicore__ InitConstValueParams() {}
  __aicore__ InitConstValueParams(const uint16_t repeatTimesIn, const uint16_t blockNumIn, const uint16_t dstGapIn,
                                  const T initValueIn);
  __aicore__ InitConstValueParams(const uint16_t repeatTimesIn, const T initValueIn);
  uint16_t repeatTimes = 0;
  uint16_t blockNum = 0;
  uint16_t dstGap = 0;
  T initValue = 0;
};

// kernel_struct_fixpipe.h (the arch-2201 members)
struct FixpipeConfig {
  CO2Layout format;
  __aicore__ constexpr FixpipeConfig(CO2Layout format_) : format(format_) {}
  __aicore__ constexpr FixpipeConfig(CO2Layout format_, bool isToUB_) : format(format_) {}
  __aicore__ constexpr FixpipeConfig(CO2Layout format_, bool isToUB_, bool enableFixVal_) : format(format_) {}
};
constexpr FixpipeConfig CFG_NZ = {CO2Layout::NZ};
constexpr FixpipeConfig CFG_ROW_MAJOR = {CO2Layout::ROW_MAJOR};
constexpr FixpipeConfig CFG_COLUMN_MAJOR = {CO2Layout::COLUMN_MAJOR};

struct FixpipeParamsV220 {
  __aicore__ FixpipeParamsV220() {}
  __aicore__ FixpipeParamsV220(const uint16_t nSizeIn, const uint16_t mSizeIn, const uint16_t srcStrideIn,
                               const uint32_t dstStrideIn, const bool reluEnIn);
  __aicore__ FixpipeParamsV220(const uint16_t nSizeIn, const uint16_t mSizeIn, const uint16_t srcStrideIn,
                               const uint32_t dstStrideIn, const bool reluEnIn, const QuantMode_t quantPreIn,
                               const int64_t deqScalarIn, const uint16_t ndNumIn, const uint16_t srcNdStrideIn,
                               const uint16_t dstNdStrideIn, const uint8_t unitFlagIn);
  __aicore__ FixpipeParamsV220(const uint16_t nSizeIn, const uint16_t mSizeIn, const uint16_t srcStrideIn,
                               const uint32_t dstStrideIn, const bool reluEnIn, const QuantMode_t quantPreIn,
                               const int64_t deqScalarIn, const uint16_t ndNumIn, const uint16_t srcNdStrideIn,
                               const uint16_t dstNdStrideIn, const uint8_t unitFlagIn, const bool isChannelSplitIn);
  uint16_t nSize = 0;
  uint16_t mSize = 0;
  uint16_t srcStride = 0;
  uint32_t dstStride = 0;
  QuantMode_t quantPre = QuantMode_t::NoQuant;
  uint64_t deqScalar;
  uint16_t ndNum = 1;
  uint16_t srcNdStride = 0;
  uint16_t dstNdStride = 0;
  bool reluEn = false;
  uint8_t unitFlag = 0;
  bool isChannelSplit = false;
};

// kernel_struct_aipp.h: aggregates
template <typename T> struct AippPaddingParams {
  uint32_t paddingMode{0};
  T paddingValueCh0{0};
  T paddingValueCh1{0};
  T paddingValueCh2{0};
  T paddingValueCh3{0};
};
struct AippSwapParams {
  bool isSwapRB{false};
  bool isSwapUV{false};
  bool isSwapAX{false};
};
struct AippSingleLineParams {
  bool isSingleLineCopy{false};
};
struct AippDataTypeConvParams {
  uint8_t dtcMeanCh0{0};
  uint8_t dtcMeanCh1{0};
  uint8_t dtcMeanCh2{0};
  half dtcMinCh0{0};
  half dtcMinCh1{0};
  half dtcMinCh2{0};
  half dtcVarCh0{1.0};
  half dtcVarCh1{1.0};
  half dtcVarCh2{1.0};
  uint32_t dtcRoundMode{0};
};
template <typename T> struct AippChannelPaddingParams {
  uint32_t cPaddingMode;
  T cPaddingValue;
};
struct AippColorSpaceConvParams {
  bool isEnableCsc{false};
  int16_t cscMatrixR0C0{0};
  int16_t cscMatrixR0C1{0};
  int16_t cscMatrixR0C2{0};
  int16_t cscMatrixR1C0{0};
  int16_t cscMatrixR1C1{0};
  int16_t cscMatrixR1C2{0};
  int16_t cscMatrixR2C0{0};
  int16_t cscMatrixR2C1{0};
  int16_t cscMatrixR2C2{0};
  uint8_t cscBiasIn0{0};
  uint8_t cscBiasIn1{0};
  uint8_t cscBiasIn2{0};
  uint8_t cscBiasOut0{0};
  uint8_t cscBiasOut1{0};
  uint8_t cscBiasOut2{0};
};
template <typename T> struct AippParams {
  AippPaddingParams<T> paddingParams;
  AippSwapParams swapParams;
  AippSingleLineParams singleLineParams;
  AippDataTypeConvParams dtcParams;
  AippChannelPaddingParams<T> cPaddingParams;
  AippColorSpaceConvParams cscParams;
};

// ---- sort family (kernel_struct_proposal.h, kernel_operator_proposal_intf.h)
template <typename T> struct MrgSortSrcList {
  __aicore__ MrgSortSrcList() {}
  __aicore__ MrgSortSrcList(const LocalTensor<T> &src1In, const LocalTensor<T> &src2In, const LocalTensor<T> &src3In,
                            const LocalTensor<T> &src4In) {}
  LocalTensor<T> src1;
  LocalTensor<T> src2;
  LocalTensor<T> src3;
  LocalTensor<T> src4;
};
template <typename T>
__aicore__ void Sort32(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<uint32_t> &src1,
                       const int32_t repeatTime) {
  static_assert(FloatType<T>, "Sort32: element type not supported on the Ascend910B");
}
template <typename T, bool isFullSort>
__aicore__ void Sort(const LocalTensor<T> &dst, const LocalTensor<T> &concat, const LocalTensor<uint32_t> &index,
                     LocalTensor<T> &tmp, const int32_t repeatTime) {
  static_assert(FloatType<T>, "Sort: element type not supported on the Ascend910B");
}
template <typename T>
__aicore__ void MrgSort(const LocalTensor<T> &dst, const MrgSortSrcList<T> &src, const MrgSort4Info &params) {
  static_assert(FloatType<T>, "MrgSort: element type not supported on the Ascend910B");
}
template <typename T, bool isExhaustedSuspension>
__aicore__ void MrgSort(const LocalTensor<T> &dst, const MrgSortSrcList<T> &sortList,
                        const uint16_t elementCountList[4], uint32_t sortedNum[4], uint16_t validBit,
                        const int32_t repeatTime) {
  static_assert(FloatType<T>, "MrgSort: element type not supported on the Ascend910B");
}
__aicore__ inline void GetMrgSortResult(uint16_t &mrgSortList1, uint16_t &mrgSortList2, uint16_t &mrgSortList3,
                                        uint16_t &mrgSortList4) {}
template <typename T> __aicore__ uint32_t GetSortLen(const uint32_t elemCount) {
  static_assert(FloatType<T>, "GetSortLen: element type not supported");
  return 0;
}
template <typename T> __aicore__ uint32_t GetSortOffset(const uint32_t elemOffset) {
  static_assert(FloatType<T>, "GetSortOffset: element type not supported");
  return 0;
}
// ---- system family: block sync, caches, system variables, scalar bit utilities ----
template <MemDsbT arg0> __aicore__ void DataSyncBarrier();
template <bool isAIVOnly = true> __aicore__ void SyncAll();
template <bool isAIVOnly = true>
__aicore__ void SyncAll(const GlobalTensor<int32_t> &gmWorkspace, const LocalTensor<int32_t> &ubWorkspace,
                        const int32_t usedCores = 0);
template <bool isAIVOnly = true>
__aicore__ void IBSet(const GlobalTensor<int32_t> &gmWorkspace, const LocalTensor<int32_t> &ubWorkspace,
                      int32_t blockIdx, int32_t eventID);
template <bool isAIVOnly = true>
__aicore__ void IBWait(const GlobalTensor<int32_t> &gmWorkspace, const LocalTensor<int32_t> &ubWorkspace,
                       int32_t blockIdx, int32_t eventID);
template <bool FORCE = false>
__aicore__ void NotifyNextBlock(GlobalTensor<int32_t> &gmWorkspace, LocalTensor<int32_t> &ubWorkspace);
__aicore__ void WaitPreBlock(GlobalTensor<int32_t> &gmWorkspace, LocalTensor<int32_t> &ubWorkspace);
template <typename T, CacheLine entireType, DcciDst dcciDst>
__aicore__ void DataCacheCleanAndInvalid(const GlobalTensor<T> &dst);
template <typename T, CacheLine entireType> __aicore__ void DataCacheCleanAndInvalid(const GlobalTensor<T> &dst);
__aicore__ int64_t GetICachePreloadStatus();
__aicore__ void ICachePreLoad(const int64_t preFetchLen);
template <typename T> __aicore__ void DataCachePreload(const GlobalTensor<uint64_t> &src, const T cacheOffset);
__aicore__ void InitSocState();
__aicore__ void SetSysWorkspace(GM_ADDR workspace);
// family: slice. the HCCL context registers (kernel_common.h)
template <uint32_t index> __aicore__ void SetHcclContext(__gm__ uint8_t *context);
template <uint32_t index> __aicore__ __gm__ uint8_t *GetHcclContext(void);
__aicore__ void CheckLocalMemoryIA(const CheckLocalMemoryIAParam &checkParams);
__aicore__ void GetArchVersion(uint32_t &coreVersion);
__aicore__ constexpr int16_t GetDataBlockSizeInBytes() { return 32; }
__aicore__ int64_t GetProgramCounter();
__aicore__ int64_t GetSubBlockIdx();
__aicore__ int64_t GetSubBlockNum();
__aicore__ int64_t GetSystemCycle();
__aicore__ int64_t GetTaskRatio();
__aicore__ void Trap();
template <int countValue> __aicore__ int64_t ScalarGetSFFValue(uint64_t valueIn);
template <int countValue> __aicore__ int64_t ScalarGetCountOfValue(uint64_t valueIn);
__aicore__ int64_t ScalarCountLeadingZero(uint64_t valueIn);
__aicore__ int64_t CountBitsCntSameAsSignBit(int64_t valueIn);
template <typename T, typename U, RoundMode roundMode> __aicore__ U ScalarCast(T valueIn);
// ---- family debug: kernel_operator_dump_tensor_intf.h, kernel_prof_trace_intf.h,
// SetAippFunctions / LoadImageToLocal (kernel_operator_mm_intf.h)
template <class... Args> __aicore__ void printf(const char *fmt, Args &&...args);
template <class... Args> __aicore__ void PRINTF(const char *fmt, Args &&...args);
template <typename T> __aicore__ void DumpTensor(const LocalTensor<T> &tensor, uint32_t desc, uint32_t dumpSize);
template <typename T> __aicore__ void DumpTensor(const GlobalTensor<T> &tensor, uint32_t desc, uint32_t dumpSize);
template <typename T>
__aicore__ void DumpTensor(const LocalTensor<T> &tensor, uint32_t desc, uint32_t dumpSize, const ShapeInfo &shapeInfo);
template <typename T>
__aicore__ void DumpTensor(const GlobalTensor<T> &tensor, uint32_t desc, uint32_t dumpSize, const ShapeInfo &shapeInfo);
template <typename T>
__aicore__ void DumpAccChkPoint(const LocalTensor<T> &tensor, uint32_t index, uint32_t countOff, uint32_t dumpSize);
template <typename T>
__aicore__ void DumpAccChkPoint(const GlobalTensor<T> &tensor, uint32_t index, uint32_t countOff, uint32_t dumpSize);
__aicore__ void PrintTimeStamp(uint32_t descId);
// the dump buffer a printing kernel hands over at entry (family entry, under ASCENDC_DUMP)
__aicore__ void InitDump(bool mixFlag, GM_ADDR dumpStartAddr, uint32_t gmLen);
__aicore__ void MetricsProfStart();
__aicore__ void MetricsProfStop();
template <typename T, typename U>
__aicore__ void SetAippFunctions(const GlobalTensor<T> &src0, AippInputFormat format, AippParams<U> config);
template <typename T, typename U>
__aicore__ void SetAippFunctions(const GlobalTensor<T> &src0, const GlobalTensor<T> &src1, AippInputFormat format,
                                 AippParams<U> config);
template <typename T>
__aicore__ void LoadImageToLocal(const LocalTensor<T> &dst, const LoadImageToLocalParams &loadDataParams);
// ---- data movement family: kernel_operator_data_copy_intf.h,
// kernel_operator_set_atomic_intf.h, kernel_operator_common_intf.h
template <typename T>
__aicore__ void DataCopy(const LocalTensor<T> &dst, const GlobalTensor<T> &src, const DataCopyParams &repeatParams);
template <typename T>
__aicore__ void DataCopy(const GlobalTensor<T> &dst, const LocalTensor<T> &src, const DataCopyParams &repeatParams);
template <typename T>
__aicore__ void DataCopy(const LocalTensor<T> &dst, const LocalTensor<T> &src, const DataCopyParams &repeatParams);
template <typename T>
__aicore__ void DataCopy(const LocalTensor<T> &dst, const GlobalTensor<T> &src, const DataCopyParams &intriParams,
                         const DataCopyEnhancedParams &enhancedParams);
template <typename T>
__aicore__ void DataCopy(const GlobalTensor<T> &dst, const LocalTensor<T> &src, const DataCopyParams &intriParams,
                         const DataCopyEnhancedParams &enhancedParams);
template <typename T>
__aicore__ void DataCopy(const LocalTensor<T> &dst, const LocalTensor<T> &src, const DataCopyParams &intriParams,
                         const DataCopyEnhancedParams &enhancedParams);
template <typename T>
__aicore__ void DataCopyPad(const LocalTensor<T> &dst, const GlobalTensor<T> &src,
                            const DataCopyParams &dataCopyParams, const DataCopyPadParams &padParams);
template <typename T>
__aicore__ void DataCopyPad(const GlobalTensor<T> &dst, const LocalTensor<T> &src,
                            const DataCopyParams &dataCopyParams);
template <typename T>
__aicore__ void DataCopyPad(const LocalTensor<T> &dst, const GlobalTensor<T> &src,
                            const DataCopyExtParams &dataCopyParams, const DataCopyPadExtParams<T> &padParams);
template <typename T>
__aicore__ void DataCopyPad(const GlobalTensor<T> &dst, const LocalTensor<T> &src,
                            const DataCopyExtParams &dataCopyParams);
template <typename T, TPosition pos = TPosition::MAX> __aicore__ void SetPadValue(T paddingValue);
template <typename T, bool isSetMask = true>
__aicore__ void Copy(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint64_t mask[],
                     const uint8_t repeatTime, const CopyRepeatParams &repeatParams);
template <typename T, bool isSetMask = true>
__aicore__ void Copy(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint64_t mask,
                     const uint8_t repeatTime, const CopyRepeatParams &repeatParams);
template <typename T> __aicore__ void SetAtomicType();
template <typename T> __aicore__ void SetAtomicAdd();
__aicore__ void DisableDmaAtomic();
__aicore__ void SetAtomicNone();
template <typename T> __aicore__ void SetAtomicMax();
template <typename T> __aicore__ void SetAtomicMin();
template <AtomicDtype type, AtomicOp op> __aicore__ void SetStoreAtomicConfig();
__aicore__ void GetStoreAtomicConfig(uint16_t &atomicType, uint16_t &atomicOp);
template <typename T>
__aicore__ void DataCopy(const GlobalTensor<T> &dst, const LocalTensor<T> &src,
                         const Nz2NdParamsFull &intriParams);
/* family: cube (include/basic_api/kernel_operator_data_copy_intf.h,
 * kernel_operator_mm_intf.h, kernel_operator_fixpipe_intf.h) */
template <typename T>
__aicore__ void DataCopy(const LocalTensor<T> &dst, const GlobalTensor<T> &src,
                         const Nd2NzParams &intriParams);
template <typename T>
__aicore__ void LoadData(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                         const LoadData2DParams &loadDataParams);
template <typename T>
__aicore__ void LoadData(const LocalTensor<T> &dst, const GlobalTensor<T> &src,
                         const LoadData2DParams &loadDataParams);
template <typename T, typename U, typename S>
__aicore__ void Mmad(const LocalTensor<T> &dst, const LocalTensor<U> &fm, const LocalTensor<S> &filter,
                     const MmadParams &mmadParams);
template <typename T, typename U>
__aicore__ void InitConstValue(const LocalTensor<T> &dst, const InitConstValueParams<U> &initConstValueParams);
template <typename T, typename U, typename S, typename V>
__aicore__ void Mmad(const LocalTensor<T> &dst, const LocalTensor<U> &fm, const LocalTensor<S> &filter,
                     const LocalTensor<V> &bias, const MmadParams &mmadParams);
template <typename T, typename U, const FixpipeConfig &config = CFG_ROW_MAJOR>
__aicore__ void Fixpipe(const GlobalTensor<T> &dst, const LocalTensor<U> &src,
                        const FixpipeParamsV220 &intriParams);
/* family: cube: the rest of the basic cube API (kernel_operator_mm_intf.h,
 * kernel_operator_fixpipe_intf.h) */
template <typename T, typename U, const FixpipeConfig &config = CFG_ROW_MAJOR, typename S = uint64_t>
__aicore__ void Fixpipe(const GlobalTensor<T> &dst, const LocalTensor<U> &src, const LocalTensor<S> &cbufWorkspace,
                        const FixpipeParamsV220 &intriParams);
__aicore__ void SetFixpipePreQuantFlag(uint64_t config);
template <typename T, typename U>
__aicore__ void DataCopy(const LocalTensor<T> &dst, const LocalTensor<U> &src, const DataCopyParams &repeatParams);
template <typename T, typename U>
__aicore__ void DataCopy(const GlobalTensor<T> &dst, const LocalTensor<U> &src, const DataCopyCO12DstParams &intriParams);
template <typename T, typename U>
__aicore__ void DataCopy(const LocalTensor<T> &dst, const LocalTensor<U> &src, const DataCopyCO12DstParams &intriParams);
enum class HF32Mode { ENABLE, DISABLE };
enum class HF32TransMode { NEAREST_ZERO, NEAREST_EVEN };
__aicore__ void SetHF32Mode(HF32Mode mode);
__aicore__ void SetHF32Mode(bool hf32Mode);
__aicore__ void SetHF32TransMode(HF32TransMode mode);
__aicore__ void SetHF32TransMode(bool hf32TransMode);
__aicore__ void SetMMLayoutTransform(bool mmLayoutMode);
__aicore__ void SetLoadDataBoundary(uint32_t boundaryValue);
template <typename T> __aicore__ void SetLoadDataPaddingValue(const T padValue);
__aicore__ void SetLoadDataRepeat(const LoadDataRepeatParam &repeatParams);
template <typename T>
__aicore__ void LoadDataWithTranspose(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                                      const LoadData2dTransposeParams &loadDataParams);
template <typename T, typename U = T>
__aicore__ void LoadData(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                         const LoadData3DParamsV2<U> &loadDataParams);
template <typename T>
__aicore__ void LoadData(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                         const LoadData3DParamsV2Pro &loadDataParams);
template <typename T = int8_t, typename U = uint8_t>
__aicore__ void LoadDataWithSparse(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<U> &idx,
                                   const LoadData2DParams &loadDataParam);
template <typename T = int32_t, typename U = int8_t>
__aicore__ void MmadWithSparse(const LocalTensor<T> &dst, const LocalTensor<U> &fm, const LocalTensor<U> &filter,
                               const MmadParams &mmadParams);
} // namespace AscendC

// system family: the devkit declares GetSysWorkSpacePtr outside AscendC (kernel_operator_swap_mem_intf.h)
__aicore__ __gm__ uint8_t *GetSysWorkSpacePtr();

// family host: the devkit's kernel-side TCubeTiling (kernel_tiling/kernel_tiling.h, generated from
// include/adv_api/matmul/matmul_tilingdata.h), exported to the global namespace as the devkit does
namespace AscendC {
namespace tiling {
#pragma pack(push, 8)
struct TCubeTiling {
    int32_t usedCoreNum = 0;
    int32_t M = 0;
    int32_t N = 0;
    int32_t Ka = 0;
    int32_t Kb = 0;
    int32_t singleCoreM = 0;
    int32_t singleCoreN = 0;
    int32_t singleCoreK = 0;
    int32_t baseM = 0;
    int32_t baseN = 0;
    int32_t baseK = 0;
    int32_t depthA1 = 0;
    int32_t depthB1 = 0;
    int32_t stepM = 0;
    int32_t stepN = 0;
    int32_t isBias = 0;
    int32_t transLength = 0;
    int32_t iterateOrder = 0;
    int32_t shareMode = 0;
    int32_t shareL1Size = 0;
    int32_t shareL0CSize = 0;
    int32_t shareUbSize = 0;
    int32_t batchM = 0;
    int32_t batchN = 0;
    int32_t singleBatchM = 0;
    int32_t singleBatchN = 0;
    int32_t stepKa = 0;
    int32_t stepKb = 0;
    int32_t depthAL1CacheUB = 0;
    int32_t depthBL1CacheUB = 0;
    int32_t dbL0A = 0;
    int32_t dbL0B = 0;
    int32_t dbL0C = 0;
    int32_t ALayoutInfoB = 0;
    int32_t ALayoutInfoS = 0;
    int32_t ALayoutInfoN = 0;
    int32_t ALayoutInfoG = 0;
    int32_t ALayoutInfoD = 0;
    int32_t BLayoutInfoB = 0;
    int32_t BLayoutInfoS = 0;
    int32_t BLayoutInfoN = 0;
    int32_t BLayoutInfoG = 0;
    int32_t BLayoutInfoD = 0;
    int32_t CLayoutInfoB = 0;
    int32_t CLayoutInfoS1 = 0;
    int32_t CLayoutInfoN = 0;
    int32_t CLayoutInfoG = 0;
    int32_t CLayoutInfoS2 = 0;
    int32_t BatchNum = 0;
    int32_t mxTypePara = 0;
};
#pragma pack(pop)
} // namespace tiling
} // namespace AscendC
using AscendC::tiling::TCubeTiling;

// ---- family: adv softmax: the kernel-side SoftMaxTiling (kernel_tiling/kernel_tiling.h, generated from
// include/adv_api/activation/softmax_tilingdata.h) and SoftMax (include/adv_api/activation/softmax.h,
// softmax_utils.h)
namespace AscendC {
namespace tiling {
struct SoftMaxTiling {
    uint32_t srcM = 0;
    uint32_t srcK = 0;
    uint32_t srcSize = 0;
    uint32_t outMaxM = 0;
    uint32_t outMaxK = 0;
    uint32_t outMaxSize = 0;
    uint32_t splitM = 0;
    uint32_t splitK = 0;
    uint32_t splitSize = 0;
    uint32_t reduceM = 0;
    uint32_t reduceK = 0;
    uint32_t reduceSize = 0;
    uint32_t rangeM = 0;
    uint32_t tailM = 0;
    uint32_t tailSplitSize = 0;
    uint32_t tailReduceSize = 0;
};
} // namespace tiling
using tiling::SoftMaxTiling;
struct SoftMaxShapeInfo {
    uint32_t srcM{0};
    uint32_t srcK{0};
    uint32_t oriSrcM{0};
    uint32_t oriSrcK{0};
};
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false>
__aicore__ void SoftMax(const LocalTensor<T> &dstTensor, const LocalTensor<T> &sumTensor,
                        const LocalTensor<T> &maxTensor, const LocalTensor<T> &srcTensor, const SoftMaxTiling &tiling,
                        const SoftMaxShapeInfo &softmaxShapeInfo = {});
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false>
__aicore__ void SoftMax(const LocalTensor<half> &dstTensor, const LocalTensor<float> &sumTensor,
                        const LocalTensor<float> &maxTensor, const LocalTensor<half> &srcTensor,
                        const SoftMaxTiling &tiling, const SoftMaxShapeInfo &softmaxShapeInfo = {});
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false>
__aicore__ void SoftMax(const LocalTensor<T> &dstTensor, const LocalTensor<T> &sumTensor,
                        const LocalTensor<T> &maxTensor, const LocalTensor<T> &srcTensor,
                        const LocalTensor<uint8_t> &sharedTmpBuffer, const SoftMaxTiling &tiling,
                        const SoftMaxShapeInfo &softmaxShapeInfo = {});
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false>
__aicore__ void SoftMax(const LocalTensor<half> &dstTensor, const LocalTensor<float> &sumTensor,
                        const LocalTensor<float> &maxTensor, const LocalTensor<half> &srcTensor,
                        const LocalTensor<uint8_t> &sharedTmpBuffer, const SoftMaxTiling &tiling,
                        const SoftMaxShapeInfo &softmaxShapeInfo = {});
} // namespace AscendC

// ---- family: cores: kernel types (kernel_utils_macros.h), core types (sys_constants.h, sys_macros.h),
// cross-core flags (kernel_operator_block_sync_intf.h)
enum KernelMetaType : uint8_t {
  KERNEL_TYPE_AIV_ONLY,
  KERNEL_TYPE_AIC_ONLY,
  KERNEL_TYPE_MIX_AIV_1_0,
  KERNEL_TYPE_MIX_AIC_1_0,
  KERNEL_TYPE_MIX_AIC_1_1,
  KERNEL_TYPE_MIX_AIC_1_2,
  KERNEL_TYPE_AICORE,
  KERNEL_TYPE_VECTORCORE,
  KERNEL_TYPE_MIX_AICORE,
  KERNEL_TYPE_MIX_VECTOR_CORE,
  KERNEL_TYPE_MAX,
};
// a declaration checked for its argument (the devkit's expands to a variable only its precompile reads)
#define KERNEL_TASK_TYPE_DEFAULT(value) [[maybe_unused]] constexpr KernelMetaType pyasc_kernel_task_type = (value)
namespace AscendC {
constexpr int32_t MIX = 0;
constexpr int32_t AIC = 1;
constexpr int32_t AIV = 2;
template <uint8_t modeId, pipe_t pipe> __aicore__ void CrossCoreSetFlag(uint16_t flagId);
template <uint8_t modeId = 0, pipe_t pipe = PIPE_S> __aicore__ void CrossCoreWaitFlag(uint16_t flagId);
} // namespace AscendC
// ---- family: adv sort: Concat / Extract (basic_api/kernel_operator_proposal_intf.h; the sort pages of
// the advanced API)
namespace AscendC {
template <typename T>
__aicore__ void Concat(LocalTensor<T> &concat, const LocalTensor<T> &src, const LocalTensor<T> &tmp,
                       const int32_t repeatTime) {
  static_assert(FloatType<T>, "Concat: element type not supported (half, float)");
}
template <typename T>
__aicore__ void Extract(const LocalTensor<T> &dstValue, const LocalTensor<uint32_t> &dstIndex,
                        const LocalTensor<T> &sorted, const int32_t repeatTime) {
  static_assert(FloatType<T>, "Extract: element type not supported (half, float)");
}
} // namespace AscendC
extern int32_t g_coreType;
// family entry: the compiler's intrinsic that sets the FFTS base address the cross-core flags of a MIX
// kernel use (the devkit's kernel wrapper calls it with the address the launcher passes)
__aicore__ void set_ffts_base_addr(uint64_t config);


// ---- family: adv normquant: RmsNorm (include/adv_api/normalization/rmsnorm.h, its tiling struct from
// rmsnorm_tilingdata.h via kernel_tiling/kernel_tiling.h) and AscendQuant (include/adv_api/quantization/)
namespace AscendC {
namespace tiling {
struct RmsNormTiling {
    uint32_t bLength = 0;
    uint32_t sLength = 0;
    uint32_t hLength = 0;
    uint32_t originalHLength = 0;
    float reciprocalOfHLength = 0;
    uint32_t mainBshLength = 0;
    uint32_t mainBsLength = 0;
    uint32_t mainBsLengthAlign = 0;
    uint32_t loopRound = 0;
    uint32_t inputTailPos = 0;
    uint32_t tailBshLength = 0;
    uint32_t tailBsLength = 0;
};
} // namespace tiling
using AscendC::tiling::RmsNormTiling;
template <typename T, bool isBasicBlock = false>
__aicore__ void RmsNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                        const LocalTensor<T>& gammaLocal, const LocalTensor<uint8_t>& sharedTmpBuffer,
                        const T epsilon, const RmsNormTiling& tiling);
template <typename T, bool isBasicBlock = false>
__aicore__ void RmsNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                        const LocalTensor<T>& gammaLocal, const T epsilon, const RmsNormTiling& tiling);
struct AscendQuantConfig {
    constexpr AscendQuantConfig(const uint32_t calcCount, const uint32_t offsetCount, const uint32_t scaleCount,
                                const uint32_t workLocalSize)
        : calcCount(calcCount), offsetCount(offsetCount), scaleCount(scaleCount), workLocalSize(workLocalSize) {}
    uint32_t calcCount = 0;
    uint32_t offsetCount = 0;
    uint32_t scaleCount = 0;
    uint32_t workLocalSize = 0;
};
constexpr AscendQuantConfig ASCEND_QUANT_DEFAULT_CFG = {0, 0, 0, 0};
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                            const LocalTensor<uint8_t>& sharedTmpBuffer, const float scale, const float offset,
                            const uint32_t calCount);
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor, const float scale,
                            const float offset, const uint32_t calCount);
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                            const LocalTensor<uint8_t>& sharedTmpBuffer, const LocalTensor<T>& scaleTensor,
                            const T offset, const uint32_t scaleCount, const uint32_t calCount);
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                            const LocalTensor<T>& scaleTensor, const T offset, const uint32_t scaleCount,
                            const uint32_t calCount);
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                            const LocalTensor<uint8_t>& sharedTmpBuffer, const LocalTensor<T>& scaleTensor,
                            const LocalTensor<T>& offsetTensor, const uint32_t scaleCount, const uint32_t offsetCount,
                            const uint32_t calCount);
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                            const LocalTensor<T>& scaleTensor, const LocalTensor<T>& offsetTensor,
                            const uint32_t scaleCount, const uint32_t offsetCount, const uint32_t calCount);
} // namespace AscendC

// ---- family: adv math: the math library (include/adv_api/math/<name>.h)
namespace AscendC {
template <typename T, bool isReuseSource = false> __aicore__ void Acos(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t calCount);
template <typename T, bool isReuseSource = false> __aicore__ void Acos(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, const uint32_t calCount);
template <typename T, bool isReuseSource = false> __aicore__ void Acosh(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t calCount);
template <typename T, bool isReuseSource = false> __aicore__ void Acosh(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, const uint32_t calCount);
template <typename T, bool isReuseSource = false> __aicore__ void Asin(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t calCount);
template <typename T, bool isReuseSource = false> __aicore__ void Asin(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, const uint32_t calCount);
template <typename T, bool isReuseSource = false> __aicore__ void Asinh(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t calCount);
template <typename T, bool isReuseSource = false> __aicore__ void Asinh(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, const uint32_t calCount);
template <typename T, bool isReuseSource = false> __aicore__ void Atan(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t calCount);
template <typename T, bool isReuseSource = false> __aicore__ void Atan(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, const uint32_t calCount);
template <typename T, bool isReuseSource = false> __aicore__ void Atanh(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t calCount);
template <typename T, bool isReuseSource = false> __aicore__ void Atanh(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, const uint32_t calCount);
template <typename T, bool isReuseSource = false> __aicore__ void Cos(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t calCount);
template <typename T, bool isReuseSource = false> __aicore__ void Cos(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, const uint32_t calCount);
template <typename T, bool isReuseSource = false> __aicore__ void Cosh(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t calCount);
template <typename T, bool isReuseSource = false> __aicore__ void Cosh(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, const uint32_t calCount);
template <typename T, bool isReuseSource = false> __aicore__ void Sin(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t calCount);
template <typename T, bool isReuseSource = false> __aicore__ void Sin(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, const uint32_t calCount);
template <typename T, bool isReuseSource = false> __aicore__ void Sinh(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t calCount);
template <typename T, bool isReuseSource = false> __aicore__ void Sinh(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, const uint32_t calCount);
template <typename T, bool isReuseSource = false> __aicore__ void Tan(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t calCount);
template <typename T, bool isReuseSource = false> __aicore__ void Tan(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, const uint32_t calCount);
template <typename T, bool isReuseSource = false> __aicore__ void Tanh(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t calCount);
template <typename T, bool isReuseSource = false> __aicore__ void Tanh(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, const uint32_t calCount);
template <typename T, bool isReuseSource = false> __aicore__ void Erf(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t calCount);
template <typename T, bool isReuseSource = false> __aicore__ void Erf(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, const uint32_t calCount);
template <typename T, bool isReuseSource = false> __aicore__ void Erfc(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t calCount);
template <typename T, bool isReuseSource = false> __aicore__ void Erfc(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, const uint32_t calCount);
template <typename T, bool isReuseSource = false> __aicore__ void Digamma(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t calCount);
template <typename T, bool isReuseSource = false> __aicore__ void Digamma(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, const uint32_t calCount);
template <typename T, bool isReuseSource = false> __aicore__ void Lgamma(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t calCount);
template <typename T, bool isReuseSource = false> __aicore__ void Lgamma(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, const uint32_t calCount);
template <typename T, bool isReuseSource = false> __aicore__ void Sign(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t calCount);
template <typename T, bool isReuseSource = false> __aicore__ void Sign(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, const uint32_t calCount);
template <typename T, bool isReuseSource = false> __aicore__ void Floor(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t calCount);
template <typename T, bool isReuseSource = false> __aicore__ void Floor(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, const uint32_t calCount);
template <typename T, bool isReuseSource = false> __aicore__ void Ceil(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t calCount);
template <typename T, bool isReuseSource = false> __aicore__ void Ceil(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, const uint32_t calCount);
template <typename T, bool isReuseSource = false> __aicore__ void Round(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t calCount);
template <typename T, bool isReuseSource = false> __aicore__ void Round(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, const uint32_t calCount);
template <typename T, bool isReuseSource = false> __aicore__ void Trunc(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t calCount);
template <typename T, bool isReuseSource = false> __aicore__ void Trunc(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, const uint32_t calCount);
template <typename T, bool isReuseSource = false> __aicore__ void Frac(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t calCount);
template <typename T, bool isReuseSource = false> __aicore__ void Frac(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, const uint32_t calCount);
template <typename T, uint8_t taylorExpandLevel, bool isReuseSource = false> __aicore__ void Exp(const LocalTensor<T> &dstLocal, const LocalTensor<T> &srcLocal, const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t calCount);
template <typename T, uint8_t taylorExpandLevel, bool isReuseSource = false> __aicore__ void Exp(const LocalTensor<T> &dstLocal, const LocalTensor<T> &srcLocal, const uint32_t calCount);
template <typename T, bool isReuseSource = false> __aicore__ void Log(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, uint32_t calCount);
template <typename T, bool isReuseSource = false> __aicore__ void Power(const LocalTensor<T> &dstTensor, const LocalTensor<T> &src0Tensor, const LocalTensor<T> &src1Tensor, const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t calCount);
template <typename T, bool isReuseSource = false> __aicore__ void Power(const LocalTensor<T> &dstTensor, const LocalTensor<T> &src0Tensor, const LocalTensor<T> &src1Tensor, const uint32_t calCount);
template <typename T, bool isReuseSource = false> __aicore__ void Xor(const LocalTensor<T> &dstTensor, const LocalTensor<T> &src0Tensor, const LocalTensor<T> &src1Tensor, const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t calCount);
template <typename T, bool isReuseSource = false> __aicore__ void Xor(const LocalTensor<T> &dstTensor, const LocalTensor<T> &src0Tensor, const LocalTensor<T> &src1Tensor, const uint32_t calCount);
template <typename T, typename U, bool isReuseSource = false> __aicore__ void Axpy(const LocalTensor<T> &dstTensor, const LocalTensor<U> &srcTensor, const U scalarValue, const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t calCount);
} // namespace AscendC

#endif
