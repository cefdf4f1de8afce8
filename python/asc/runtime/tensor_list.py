"""asc.TensorList: a list of tensors passed to a kernel as one GM address, in the layout AscendC::ListTensorDesc
decodes (python/asc/language/basic/list_tensor.py).

The list is built at the launch: its header (the data pointers' byte offset; per tensor a word dim | index << 32
and its shape; dim 0 for a list of data pointers only) and one data pointer per tensor. The simulator's global
memory is the kernel's argument buffers, so the arrays are passed with the launch, after the kernel's
parameters, and a data pointer names its buffer: (buffer index + 1) << 40 | byte offset (src/sim/list_tensor.c
decodes it; nothing else is a valid pointer there).
"""

from __future__ import annotations

import sys
from typing import Any, List, Sequence

import numpy as np

__all__ = ["TensorList"]

# keep in step with PTR_SHIFT in src/sim/list_tensor.c
_PTR_SHIFT = 40


def _is_array(x: Any) -> bool:
    torch = sys.modules.get("torch")
    tensor_type = getattr(torch, "Tensor", None)
    return isinstance(x, np.ndarray) or (isinstance(tensor_type, type) and isinstance(x, tensor_type))


class TensorList:
    """A host-side list of arrays (NumPy arrays or CPU torch tensors) for a kernel parameter annotated
    `asc.GlobalAddress` that the kernel reads with `asc.ListTensorDesc`.

    `with_shape=True` (the default) writes each tensor's shape (all tensors must have the same number of
    dimensions, as the devkit's layout has one dim for the list); `with_shape=False` writes the data pointers
    only (dim 0). `length` and `shape_size` are the values `ListTensorDesc(data, length, shape_size)` checks.
    The arrays are used in place: what the kernel writes through the pointers lands in them."""

    def __init__(self, arrays: Sequence[Any], with_shape: bool = True) -> None:
        if _is_array(arrays) or not isinstance(arrays, (list, tuple)):
            raise TypeError(f"asc.TensorList takes a list of arrays, got {type(arrays).__name__}")
        if not arrays:
            raise ValueError("asc.TensorList needs at least one array")
        for i, a in enumerate(arrays):
            if not _is_array(a):
                raise TypeError(f"asc.TensorList: item {i} must be a NumPy array or a torch tensor, "
                                f"got {type(a).__name__}")
        self.arrays: List[Any] = list(arrays)
        self.with_shape = bool(with_shape)
        if self.with_shape:
            dims = {len(a.shape) for a in self.arrays}
            if len(dims) != 1:
                raise ValueError(f"asc.TensorList: the arrays have different numbers of dimensions {sorted(dims)}; "
                                 f"the list holds one dim for all its tensors")
            if 0 in dims:
                raise ValueError("asc.TensorList: 0-d arrays have no shape to write; reshape them to (1,) or pass "
                                 "with_shape=False")

    def __len__(self) -> int:
        return len(self.arrays)

    def __repr__(self) -> str:
        return f"TensorList({len(self.arrays)} arrays, with_shape={self.with_shape})"

    @property
    def dim(self) -> int:
        """The dim written for every tensor (0 with with_shape=False)."""
        return len(self.arrays[0].shape) if self.with_shape else 0

    @property
    def shape_size(self) -> int:
        """The number of tensors."""
        return len(self.arrays)

    @property
    def length(self) -> int:
        """The list's size in bytes, up to and with its last data pointer."""
        return 8 * self._ptr_word() + 8 * len(self.arrays)

    def _ptr_word(self) -> int:
        return 3 if not self.with_shape else 1 + len(self.arrays) * (1 + self.dim)

    def pack(self, first_buffer: int) -> np.ndarray:
        """The list's words (uint64) when its arrays are the launch's GM buffers first_buffer, first_buffer + 1,
        ... (the launcher calls this)."""
        n = len(self.arrays)
        words = np.zeros(self._ptr_word() + n, dtype=np.uint64)
        words[0] = 8 * self._ptr_word()
        if self.with_shape:
            at = 1
            for i, a in enumerate(self.arrays):
                words[at] = self.dim | (i << 32)
                words[at + 1: at + 1 + self.dim] = [int(s) for s in a.shape]
                at += 1 + self.dim
        else:
            words[1] = n << 32  # dim 0; the high word is the count
            words[2] = 0xFFFFFFFF
        for j in range(n):
            words[self._ptr_word() + j] = (first_buffer + j + 1) << _PTR_SHIFT
        return words
