"""asc.data_copy(dst_gm, src_ub, asc.Nz2NdParamsFull(...)): UB -> GM turning NZ matrices into ND rows (the
devkit's DataCopyUB2GMNZ2NDImpl, a loop of DataCopyPad, one per 16-column block): against a NumPy reference of
the layout, for 16- and 32-bit types, one and several matrices, strides; the devkit's checks as KernelErrors;
misuse as CompileErrors; each DataCopyPad an event of its own (two cores writing the column blocks of one
matrix do not race)."""

import numpy as np
import pytest
from kernels_util import ascendc

import asc


@asc.jit
def nz2nd_kernel(z: asc.GlobalAddress, x: asc.GlobalAddress, nd: int, n: int, d: int, snd: int, sn: int,
                 dd: int, dnd: int, total: asc.ConstExpr[int]):
    """x (total elements) into UB, then UB -> z by Nz2NdParamsFull."""
    xg = asc.GlobalTensor()
    xg.set_global_buffer(x)
    zg = asc.GlobalTensor()
    zg.set_global_buffer(z)
    pipe = asc.TPipe()
    q = asc.TQue(asc.TPosition.VECOUT, 1)
    pipe.init_buffer(q, 1, total * 4)
    t = q.alloc_tensor(x.dtype)
    asc.data_copy(t, xg, total)
    asc.set_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.data_copy(zg, t, asc.Nz2NdParamsFull(nd, n, d, snd, sn, dd, dnd))


def reference(z: np.ndarray, x: np.ndarray, nd: int, n: int, d: int, snd: int, sn: int, dd: int,
              dnd: int) -> np.ndarray:
    """Element (r, c) of matrix i: UB element i * snd * 256 + (c // 16) * sn * 16 + r * 16 + c % 16 to GM
    element i * dnd + r * dd + c."""
    want = z.copy()
    for i in range(nd):
        for r in range(n):
            for c in range(d):
                want[i * dnd + r * dd + c] = x[i * snd * 256 + (c // 16) * sn * 16 + r * 16 + c % 16]
    return want


CASES = [  # nd, n, d, snd, sn, dd, dnd
    (1, 16, 16, 1, 16, 16, 0),
    (1, 5, 32, 1, 5, 40, 0),      # rows not a multiple of 16, GM rows wider than the matrix
    (2, 8, 48, 3, 8, 50, 900),    # two matrices, three column blocks
    (3, 1, 16, 1, 1, 16, 17),     # one row each, matrices packed closely in GM
]


@pytest.mark.parametrize("dtype", [np.float16, np.int16, np.float32, np.int32, np.uint32])
@pytest.mark.parametrize("case", CASES)
def test_nz2nd_layout(dtype: type, case: tuple) -> None:
    nd, n, d, snd, sn, dd, dnd = case
    total = max(16 * 16 * 16, (nd * snd + 4) * 256)
    rng = np.random.default_rng(1)
    x = rng.integers(-1000, 1000, total).astype(dtype)
    size = max(nd * dnd, 1) + n * dd + 64
    z = np.full(size, 7, dtype)
    nz2nd_kernel[1](z, x, nd, n, d, snd, sn, dd, dnd, total, sanitize="error")
    np.testing.assert_array_equal(z, reference(z * 0 + 7, x, *case))


def test_zero_matrices_write_nothing() -> None:
    x = np.arange(4096, dtype=np.float16)
    z = np.full(64, 3, np.float16)
    nz2nd_kernel[1](z, x, 0, 16, 16, 1, 16, 16, 0, 4096)
    assert (z == 3).all()


@pytest.mark.parametrize("args,fragment", [
    ((1, 16, 24, 1, 16, 24, 0), "dValue 24 is not a multiple of 16"),
    ((2, 5, 16, 1, 5, 16, 80), "not a multiple of nValue x sizeof\\(T\\)"),
    ((1, 0, 16, 1, 16, 16, 0), "nValue 0 is out of range"),
    ((1, 16, 16, 1, 16, 16, 0, True), "past"),  # GM too small: the write past the argument is reported
])
def test_devkit_checks_are_kernel_errors(args: tuple, fragment: str) -> None:
    small = len(args) == 8
    x = np.arange(4096, dtype=np.float16)
    z = np.zeros(100 if small else 4096, np.float16)
    with pytest.raises(asc.KernelError, match=fragment):
        nz2nd_kernel[1](z, x, *args[:7], 4096, sanitize="error")


@asc.jit
def split_kernel(z: asc.GlobalAddress, x: asc.GlobalAddress):
    """Two cores: core b copies column block b of one 16 x 32 NZ matrix into the same GM rows."""
    b = asc.get_block_idx()
    xg = asc.GlobalTensor()
    xg.set_global_buffer(x)
    zg = asc.GlobalTensor()
    zg.set_global_buffer(z)
    pipe = asc.TPipe()
    q = asc.TQue(asc.TPosition.VECOUT, 1)
    pipe.init_buffer(q, 1, 1024)
    t = q.alloc_tensor(x.dtype)
    asc.data_copy(t, xg[b * 256:], 256)
    asc.set_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.data_copy(zg[b * 16:], t, asc.Nz2NdParamsFull(1, 16, 16, 1, 16, 32, 0))


def test_cores_writing_interleaved_columns_do_not_race() -> None:
    x = np.arange(512, dtype=np.float32)
    z = np.zeros(16 * 32, np.float32)
    split_kernel[2](z, x, sanitize="error")
    want = np.concatenate([x[:256].reshape(16, 16), x[256:].reshape(16, 16)], axis=1).ravel()
    np.testing.assert_array_equal(z, want)


@asc.jit
def misuse_kernel(z: asc.GlobalAddress, case: asc.ConstExpr[int]):
    zg = asc.GlobalTensor()
    zg.set_global_buffer(z)
    pipe = asc.TPipe()
    q = asc.TQue(asc.TPosition.VECOUT, 1)
    pipe.init_buffer(q, 1, 1024)
    t = q.alloc_tensor(asc.int8)
    h = q.alloc_tensor(asc.float16)
    p = asc.Nz2NdParamsFull(1, 16, 16, 1, 16, 16, 0)
    if case == 0:
        asc.data_copy(zg, t, p)  # <- 0: 8-bit
    if case == 1:
        asc.data_copy(h, zg, p)  # <- 1: GM -> UB
    if case == 2:
        asc.data_copy(zg, h, p)  # <- 2: dtypes differ (z is int8)


@pytest.mark.parametrize("case,fragment", [(0, "16- or 32-bit"), (1, "copies a UB LocalTensor"), (2, "differ")])
def test_misuse_is_a_compile_error_at_the_line(case: int, fragment: str) -> None:
    with pytest.raises(asc.CompileError, match=fragment) as e:
        misuse_kernel[1](np.zeros(512, np.int8), case)
    assert f"# <- {case}" in str(e.value)


def test_ascendc() -> None:
    assert "AscendC::DataCopy(" in ascendc(nz2nd_kernel)
    assert "AscendC::Nz2NdParamsFull(" in ascendc(nz2nd_kernel)
