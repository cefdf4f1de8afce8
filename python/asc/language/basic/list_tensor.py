"""TensorDesc and ListTensorDesc: a list of tensors in global memory (`AscendC::TensorDesc<T>`,
`AscendC::ListTensorDesc`).

A kernel that takes a variable number of tensors gets one GM address holding a list: a header, a descriptor
per tensor (its dim and index, then its shape) and the tensors' data pointers. ListTensorDesc decodes the
header; get_desc fills a TensorDesc with one tensor's dim, index, shape and data pointer; get_data_ptr reads a
data pointer alone. On the host, `asc.TensorList([...])` builds such a list from NumPy arrays (the simulator's
global memory is the kernel's argument buffers, so the arrays ride along with the launch).
"""

from __future__ import annotations

from typing import Any

from ...codegen import builder as _b
from ...runtime.tensor_list import TensorList
from ..core import dtype as dt
from ..core.checks import error, got, is_ir_handle, usage
from ..core.dtype import DataType
from ..core.values import GlobalAddress, GlobalTensor, IRValue, Scalar, int_operand

__all__ = ["ListTensorDesc", "TensorDesc", "TensorList"]

_NO_SIZE = 0xFFFFFFFF


def _dtype_arg(dtype: Any, api: str) -> DataType:
    if not isinstance(dtype, DataType):
        raise error(f"{api}: 'dtype' must be an asc data type (asc.float32, asc.int8, ...), got {got(dtype)}")
    return dtype


def _uint(x: Any, api: str, name: str) -> Scalar:
    try:
        v = int_operand(x, f"{api}: '{name}'")
    except TypeError as e:
        raise error(str(e)) from None
    if isinstance(x, int) and x < 0:
        raise error(f"{api}: '{name}' must not be negative, got {x}")
    return v


class TensorDesc(IRValue):
    """`AscendC::TensorDesc<T>`: one tensor of a ListTensorDesc, filled by `ListTensorDesc.get_desc`.

    `set_shape_addr` must give it the address of the array its shape is written to before `get_desc` (in the
    simulator the desc holds that array itself, up to 8 dimensions, and the address only has to be nonzero)."""

    @usage("asc.TensorDesc()", "asc.TensorDesc(dtype=asc.float16)")
    def __init__(self, dtype: DataType = dt.float32, handle: Any = None) -> None:
        self.dtype = _dtype_arg(dtype, "asc.TensorDesc")
        if handle is not None:
            if not is_ir_handle(handle):
                raise error(f"asc.TensorDesc: 'handle' is internal, got {got(handle)}",
                            "hint: write d = asc.TensorDesc(dtype=asc.float32)")
            self.handle = handle
            return
        b = _b.current()
        self.handle = b.create1("asc.tensor_desc", [], b.type("tensor_desc", self.dtype.name))

    def __repr__(self) -> str:
        return f"TensorDesc({self.dtype.name})"

    def to_ir(self) -> Any:
        return self.handle

    @usage("d.set_shape_addr(shape_ptr)")
    def set_shape_addr(self, shape_ptr: Any) -> None:
        """`SetShapeAddr(shapePtr)`: where get_desc writes the shape (a uint64 array's address, nonzero)."""
        b = _b.current()
        p = _uint(shape_ptr, "TensorDesc.set_shape_addr", "shape_ptr")
        b.create("asc.tensor_desc.set_shape_addr", [self.handle, p])

    def _get(self, op: str, *operands: Any) -> Scalar:
        b = _b.current()
        return Scalar(b.create1(op, [self.handle, *operands], b.scalar_type(dt.uint64)), dt.uint64)

    @usage("d.get_dim()")
    def get_dim(self) -> Scalar:
        """`GetDim()`: the tensor's number of dimensions (uint64; 0 before get_desc)."""
        return self._get("asc.tensor_desc.get_dim")

    @usage("d.get_index()")
    def get_index(self) -> Scalar:
        """`GetIndex()`: the tensor's index in its list (uint64)."""
        return self._get("asc.tensor_desc.get_index")

    @usage("d.get_shape(offset)")
    def get_shape(self, offset: Any) -> Scalar:
        """`GetShape(offset)`: dimension `offset` of the tensor's shape (uint64); offset must be below get_dim(),
        else a KernelError."""
        return self._get("asc.tensor_desc.get_shape", _uint(offset, "TensorDesc.get_shape", "offset"))

    @usage("d.get_data_ptr()")
    def get_data_ptr(self) -> GlobalAddress:
        """`GetDataPtr()`: the tensor's data pointer, a GlobalAddress of the desc's dtype."""
        b = _b.current()
        h = b.create1("asc.tensor_desc.get_data_ptr", [self.handle], b.type("global_address", self.dtype.name))
        return GlobalAddress(h, self.dtype)

    @usage("d.get_data_obj()")
    def get_data_obj(self) -> GlobalTensor:
        """`GetDataObj()`: a GlobalTensor over the data pointer; its size (get_size) is, as in the devkit,
        sizeof(T) times the product of the shape."""
        b = _b.current()
        h = b.create1("asc.tensor_desc.get_data_obj", [self.handle], b.type("global_tensor", self.dtype.name))
        return GlobalTensor(h, self.dtype)


def _list_operands(data: Any, length: Any, shape_size: Any, api: str) -> list:
    if not isinstance(data, GlobalAddress):
        raise error(f"{api}: 'data' must be a GlobalAddress (the kernel's list parameter), got {got(data)}",
                    "hint: pass the list as a kernel argument annotated asc.GlobalAddress (asc.TensorList on the "
                    "host) and write asc.ListTensorDesc(data=x)")
    return [data, _uint(length, api, "length"), _uint(shape_size, api, "shape_size")]


class ListTensorDesc(IRValue):
    """`AscendC::ListTensorDesc`: decodes a list of tensors in global memory (see the module's docstring)."""

    @usage("asc.ListTensorDesc()", "asc.ListTensorDesc(data=x)",
           "asc.ListTensorDesc(data=x, length=0xffffffff, shape_size=0xffffffff)")
    def __init__(self, data: Any = None, length: Any = _NO_SIZE, shape_size: Any = _NO_SIZE,
                 handle: Any = None) -> None:
        if handle is not None:
            if not is_ir_handle(handle):
                raise error(f"asc.ListTensorDesc: 'handle' is internal, got {got(handle)}",
                            "hint: write asc.ListTensorDesc(data=x)")
            self.handle = handle
            return
        b = _b.current()
        ty = b.type("list_tensor_desc")
        if data is None:
            if length != _NO_SIZE or shape_size != _NO_SIZE:
                raise error("asc.ListTensorDesc: 'length' and 'shape_size' need 'data'",
                            "hint: write asc.ListTensorDesc(data=x, length=n, shape_size=m)")
            self.handle = b.create1("asc.list_tensor_desc", [], ty)
        else:
            operands = _list_operands(data, length, shape_size, "asc.ListTensorDesc")
            self.handle = b.create1("asc.list_tensor_desc.from_data", operands, ty)

    def __repr__(self) -> str:
        return "ListTensorDesc()"

    def to_ir(self) -> Any:
        return self.handle

    @usage("l.init(data=x)", "l.init(data=x, length=0xffffffff, shape_size=0xffffffff)")
    def init(self, data: Any, length: Any = _NO_SIZE, shape_size: Any = _NO_SIZE) -> None:
        """`Init(data, length, shapeSize)`: decodes the list at `data`; with both length (the list's bytes up to
        its last data pointer) and shape_size (its tensor count) given, checks that the list has them."""
        operands = _list_operands(data, length, shape_size, "ListTensorDesc.init")
        _b.current().create("asc.list_tensor_desc.init", [self.handle, *operands])

    @usage("l.get_desc(desc, index)")
    def get_desc(self, desc: Any, index: Any) -> None:
        """`GetDesc(desc, index)`: fills desc with tensor `index`'s dim, index, shape and data pointer."""
        if not isinstance(desc, TensorDesc):
            raise error(f"ListTensorDesc.get_desc: 'desc' must be an asc.TensorDesc, got {got(desc)}",
                        "hint: write d = asc.TensorDesc(dtype=...); d.set_shape_addr(p); l.get_desc(d, i)")
        i = _uint(index, "ListTensorDesc.get_desc", "index")
        _b.current().create("asc.list_tensor_desc.get_desc", [self.handle, desc.handle, i])

    @usage("l.get_data_ptr(index, asc.float16)")
    def get_data_ptr(self, index: Any, dtype: Any) -> GlobalAddress:
        """`GetDataPtr<T>(index)`: tensor `index`'s data pointer, a GlobalAddress of `dtype`."""
        d = _dtype_arg(dtype, "ListTensorDesc.get_data_ptr")
        i = _uint(index, "ListTensorDesc.get_data_ptr", "index")
        b = _b.current()
        h = b.create1("asc.list_tensor_desc.get_data_ptr", [self.handle, i], b.type("global_address", d.name))
        return GlobalAddress(h, d)

    @usage("l.get_size()")
    def get_size(self) -> Scalar:
        """`GetSize()`: the number of tensors in the list (uint32; 0 before it is decoded)."""
        b = _b.current()
        h = b.create1("asc.list_tensor_desc.get_size", [self.handle], b.scalar_type(dt.uint32))
        return Scalar(h, dt.uint32)
