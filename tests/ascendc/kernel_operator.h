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
#undef PYASC_BINARY

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
#undef PYASC_UNARY

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
enum class CacheLine : uint64_t { SINGLE_CACHE_LINE = 0, ENTIRE_DATA_CACHE };
enum class DcciDst : uint64_t { CACHELINE_ALL = 0, CACHELINE_UB, CACHELINE_OUT, CACHELINE_ATOMIC };
// impl/basic_api/utils/kernel_utils_macros.h
enum class CacheMode { CACHE_MODE_DISABLE = 0, CACHE_MODE_NORMAL = 1, CACHE_MODE_LAST = 2, CACHE_MODE_PERSISTENT = 4 };
enum class CacheRwMode { READ = 1, WRITE = 2, RW = 3 };
// impl/basic_api/utils/kernel_utils_mode.h
enum class CMPMODE : uint8_t { LT = 0, GT, EQ, LE, GE, NE };
enum class SELMODE : uint8_t { VSEL_CMPMASK_SPR = 0, VSEL_TENSOR_SCALAR_MODE, VSEL_TENSOR_TENSOR_MODE };
enum class DeqScale : uint8_t { DEQ_NONE = 0, DEQ, VDEQ, DEQ8, VDEQ8, DEQ16, VDEQ16 };
enum class ReduceOrder : uint8_t { ORDER_VALUE_INDEX = 0, ORDER_INDEX_VALUE, ORDER_ONLY_VALUE, ORDER_ONLY_INDEX };
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

#endif
