"""TensorDesc and ListTensorDesc (a GM list of tensor descriptors). Not supported yet."""

from __future__ import annotations

from typing import Any


class TensorDesc:
    """`AscendC::TensorDesc<T>`: one tensor's descriptor in a ListTensorDesc. Not supported yet."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise NotImplementedError("asc.TensorDesc is not supported yet")


class ListTensorDesc:
    """`AscendC::ListTensorDesc`: a list of tensor descriptors in global memory. Not supported yet."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise NotImplementedError("asc.ListTensorDesc is not supported yet")
