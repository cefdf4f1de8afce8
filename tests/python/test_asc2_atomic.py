"""asc2.atomic_add / atomic_max / atomic_min against NumPy: every block combines its tile into one GM row (odd
length: the DataCopyPad path), per dtype; the Ascend C brackets the store with SetAtomic*/SetAtomicNone."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import asc
import asc2
from asc.codegen.errors import CompileError
from asc.runtime import compiler


@asc2.jit
def atomic_kernel(x_ptr: asc.GlobalAddress, z_ptr: asc.GlobalAddress, n: asc.ConstExpr[int], op: asc.ConstExpr):
    x = asc2.load(asc2.tensor(x_ptr, [4 * n]), [n], offsets=[asc2.block_idx() * n])
    op(x, asc2.tensor(z_ptr, [n]), offsets=[0])


@pytest.mark.parametrize("op, ref", [(asc2.atomic_add, np.add), (asc2.atomic_max, np.maximum),
                                     (asc2.atomic_min, np.minimum)])
@pytest.mark.parametrize("dtype, n", [("float32", 40), ("float16", 48), ("int32", 13)])
def test_atomics(op: Any, ref: Any, dtype: str, n: int) -> None:
    rng = np.random.default_rng(n)
    x = rng.integers(-50, 50, 4 * n).astype(dtype)
    z = rng.integers(-50, 50, n).astype(dtype)
    want = z.copy()
    for b in range(4):
        want = ref(want, x[b * n:(b + 1) * n])
    atomic_kernel[4](x, z, n, op)
    np.testing.assert_array_equal(z, want)


def test_atomic_in_ascendc_and_errors() -> None:
    seen: list = []
    compiler.compile_listeners.append(seen.append)
    try:
        atomic_kernel[4](np.zeros(4 * 24, np.float32), np.zeros(24, np.float32), 24, asc2.atomic_add)
    finally:
        compiler.compile_listeners.remove(seen.append)
    src = seen[0].ascendc()
    assert src.index("AscendC::SetAtomicAdd<float>()") < src.rindex("AscendC::DataCopy(") \
        < src.index("AscendC::SetAtomicNone()")

    @asc2.jit
    def bad(z_ptr: asc.GlobalAddress):
        asc2.atomic_add(1.0, asc2.tensor(z_ptr, [8]), offsets=[0])  # the bad line

    with pytest.raises(CompileError, match="asc2.atomic_add: the value must be a tile"):
        bad[1](np.zeros(8, np.float32))
