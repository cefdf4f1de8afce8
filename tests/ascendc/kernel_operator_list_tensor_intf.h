// Our declaration of the devkit's list tensor API (family listtensor): kernel_operator_list_tensor_intf.h,
// which the devkit's kernel_operator.h does not include (a kernel using it includes it itself).
#ifndef ASC_TEST_KERNEL_OPERATOR_LIST_TENSOR_INTF_H
#define ASC_TEST_KERNEL_OPERATOR_LIST_TENSOR_INTF_H
#include "kernel_operator.h"

namespace AscendC {
class ListTensorDesc;
template <class T> class TensorDesc {
public:
  __aicore__ TensorDesc();
  __aicore__ void SetShapeAddr(uint64_t *shapePtr);
  __aicore__ uint64_t GetDim();
  __aicore__ uint64_t GetIndex();
  __aicore__ uint64_t GetShape(uint32_t offset);
  __aicore__ __gm__ T *GetDataPtr();
  __aicore__ GlobalTensor<T> GetDataObj();
};
class ListTensorDesc {
public:
  __aicore__ ListTensorDesc();
  __aicore__ ListTensorDesc(__gm__ void *data, uint32_t length = 0xffffffff, uint32_t shapeSize = 0xffffffff);
  __aicore__ void Init(__gm__ void *data, uint32_t length = 0xffffffff, uint32_t shapeSize = 0xffffffff);
  template <class T> __aicore__ void GetDesc(TensorDesc<T> &desc, uint32_t index);
  template <class T> __aicore__ __gm__ T *GetDataPtr(uint32_t index);
  __aicore__ uint32_t GetSize();
};
} // namespace AscendC

#endif
