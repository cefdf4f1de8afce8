"""Scalar element access: GlobalTensor / LocalTensor get_value and set_value,
t[offset:] views, and the element data types.

Values are exact for every type (integers over their full range, floats
with signed zeros, subnormals and infinities; a NaN stays a NaN). Scalar
arithmetic on the values follows the element type: integers wrap at their
width, 16-bit floats round after every operation.
"""

import numpy as np
import pytest
from kernels_util import UB_SLOT, assert_bits_equal, bf16_to_f32, f32_to_bf16_rne, storage

import asc

try:  # only for GlobalTensor<bfloat16>, which needs a bfloat16 array
    import torch
except ImportError:  # pragma: no cover
    torch = None

TYPES = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32", "bool")
SIZES = {"int8": 1, "int16": 2, "int32": 4, "int64": 8, "uint8": 1, "uint16": 2, "uint32": 4, "uint64": 8,
         "float16": 2, "bfloat16": 2, "float32": 4, "float64": 8, "bool": 1}


def edge_values(name: str, n: int, seed: int) -> np.ndarray:
    """n values: the type's extremes and specials first, then random bit patterns."""
    st = storage(name)
    rng = np.random.default_rng(seed)
    if name == "bool":
        return rng.integers(0, 2, n).astype(np.bool_)
    if name.startswith("float"):
        fi = np.finfo(st)
        head = np.array([0.0, -0.0, 1.0, -1.5, fi.max, -fi.max, fi.smallest_normal, fi.smallest_subnormal,
                         -fi.smallest_subnormal, np.inf, -np.inf, np.nan], st)
    else:
        ii = np.iinfo(st)
        head = np.array([0, 1, ii.max, ii.min, ii.max - 1, ii.min + 1, ii.max // 2], st)
    rest = rng.integers(0, 256, (n - len(head)) * st.itemsize, dtype=np.uint8).view(st)
    return np.concatenate([head, rest])


# ---------------------------------------------------------------------------
# data types
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("name", list(SIZES))
def test_dtype_sizeof(name: str) -> None:
    dt = getattr(asc, "bool_" if name == "bool" else name)
    assert dt.sizeof() == SIZES[name]
    assert dt.name == name
    assert dt.is_float() == (name in ("float16", "bfloat16", "float32", "float64"))
    assert dt.is_int() == (not dt.is_float())  # bool counts as an unsigned 8-bit integer


def test_dtype_aliases() -> None:
    assert asc.bool is asc.bool_
    assert asc.half is asc.float16 and asc.float_ is asc.float32 and asc.double is asc.float64
    assert asc.int_ is asc.int32
    assert asc.float16 != asc.bfloat16 and asc.float16 == asc.half
    assert len({asc.float16, asc.half, asc.bfloat16}) == 2
    assert asc.uint8.is_unsigned() and asc.int8.is_signed() and not asc.float32.is_signed()


@asc.jit
def _sizeof_in_kernel(z: asc.GlobalAddress):
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z)
    z_gm.set_value(0, asc.float16.sizeof())
    z_gm.set_value(1, asc.bfloat16.sizeof())
    z_gm.set_value(2, asc.int64.sizeof())
    z_gm.set_value(3, asc.bool_.sizeof())
    z_gm.set_value(4, z.dtype.sizeof())


def test_sizeof_in_kernel() -> None:
    z = np.zeros(8, np.int32)
    _sizeof_in_kernel[1](z)
    assert z.tolist() == [2, 2, 8, 1, 4, 0, 0, 0]


# ---------------------------------------------------------------------------
# GlobalTensor
# ---------------------------------------------------------------------------

@asc.jit
def _gm_copy(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    for i in range(n):
        z_gm.set_value(i, x_gm.get_value(i))


@pytest.mark.parametrize("name", TYPES)
def test_global_get_set_values_exact(name: str) -> None:
    x = edge_values(name, 300, 1)
    z = np.zeros_like(x)
    _gm_copy[1](x, z, len(x))
    if name.startswith("float"):
        assert_bits_equal(z, x, context=name)
    else:
        assert (z.view(np.uint8) == x.view(np.uint8)).all()


@asc.jit
def _gm_arith(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    for i in range(n):
        v = x_gm.get_value(i)
        z_gm.set_value(i, v * 3 + 1)


@pytest.mark.parametrize("name", [t for t in TYPES if t != "bool"])
def test_scalar_arithmetic_in_element_type(name: str) -> None:
    st = storage(name)
    x = edge_values(name, 200, 2)
    z = np.zeros_like(x)
    _gm_arith[1](x, z, len(x))
    with np.errstate(all="ignore"):
        want = (x * st.type(3) + st.type(1)).astype(st)  # NumPy scalars of the type: wrap / round per op
    assert_bits_equal(z, want, context=name)


def test_half_scalar_arithmetic_rounds_each_step() -> None:
    x = np.array([2048, 2050, 21843, 65504, 2.0 ** -24], np.float16)
    z = np.zeros_like(x)
    _gm_arith[1](x, z, len(x))
    # 2048*3 = 6144, +1 -> tie to even 6144; 2050*3 = 6150, +1 -> 6152; 21843*3 overflows to inf;
    # 2^-24 * 3 = 3 * 2^-24, + 1 rounds to 1
    assert z.tolist() == [6144.0, 6152.0, np.inf, np.inf, 1.0]


@asc.jit
def _int_compare(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    t = x_gm.get_value(0)
    for i in range(n):
        v = x_gm.get_value(i)
        z_gm.set_value(4 * i, 1 if v > t else 0)
        z_gm.set_value(4 * i + 1, 1 if v <= t else 0)
        z_gm.set_value(4 * i + 2, max(v, t))
        z_gm.set_value(4 * i + 3, min(v, t))


INT_TYPES = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")


@pytest.mark.parametrize("name", INT_TYPES)
def test_scalar_compare_and_min_max_in_element_type(name: str) -> None:
    st = storage(name)
    ii = np.iinfo(st)
    mid = st.type(ii.max // 3 if ii.min == 0 else -5)
    x = np.concatenate([np.array([mid, ii.max, ii.min, ii.max // 2 + 1, ii.max // 2, 0, 1], st),
                        edge_values(name, 40, 4)])
    z = np.zeros(4 * len(x), st)
    _int_compare[1](x, z, len(x))
    want = np.stack([x > mid, x <= mid, np.maximum(x, mid), np.minimum(x, mid)], axis=1).astype(st).ravel()
    assert (z == want).all(), np.flatnonzero(z != want)[:8]


@asc.jit
def _gm_views(x: asc.GlobalAddress, z: asc.GlobalAddress, a: int, b: int, c: int):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + a)
    z_gm.set_global_buffer(z)
    v = x_gm[b:]
    z_gm[c:].set_value(0, v.get_value(0))
    z_gm[c:][1:].set_value(0, v[1:].get_value(2))
    z_gm.set_value(c + 2, x_gm(b).get_value(1))


@pytest.mark.parametrize("a,b,c", [(0, 0, 0), (1, 2, 3), (7, 0, 11), (0, 20, 5)])
def test_global_views(a: int, b: int, c: int) -> None:
    x = np.arange(100, 164, dtype=np.int16)
    z = np.zeros(32, np.int16)
    _gm_views[1](x, z, a, b, c)
    want = np.zeros(32, np.int16)
    want[c:c + 3] = [x[a + b], x[a + b + 3], x[a + b + 1]]
    assert (z == want).all()


@asc.jit
def _gm_index(x: asc.GlobalAddress, z: asc.GlobalAddress, i: int, j: int):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    z_gm.set_value(0, 42)
    z_gm.set_value(j, x_gm.get_value(i))


@pytest.mark.parametrize("i,j,match", [(16, 1, "out of bounds"), (0, 16, "out of bounds"), (-1, 1, "negative"),
                                       (1, -3, "negative"), (10 ** 9, 1, "out of bounds")])
def test_global_index_faults(i: int, j: int, match: str) -> None:
    x = np.arange(16, dtype=np.float32)
    z = np.zeros(16, np.float32)
    with pytest.raises(asc.KernelError, match=match) as info:
        _gm_index[1](x, z, i, j)
    assert info.value.api.startswith("GlobalTensor.")
    assert (z[1:] == 0).all()  # the faulting access wrote nothing (z[0] is the kernel's own earlier write)


def test_global_index_in_range() -> None:
    x = np.arange(16, dtype=np.float32)
    z = np.zeros(16, np.float32)
    _gm_index[1](x, z, 15, 15)
    assert z[0] == 42 and z[15] == 15


def test_set_value_on_read_only_array() -> None:
    x = np.arange(16, dtype=np.float32)
    z = np.zeros(16, np.float32)
    z.flags.writeable = False
    with pytest.raises(asc.KernelError, match="read-only"):
        _gm_index[1](x, z, 1, 1)


@asc.jit
def _gm_const_store(z: asc.GlobalAddress, form: asc.ConstExpr[str]):
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z)
    if form == "int_to_float":
        z_gm.set_value(0, 3)
        z_gm.set_value(1, -0.0)
        z_gm.set_value(2, 0.1)
    elif form == "float_to_int":
        z_gm.set_value(0, 1.5)
    elif form == "slice_stop":
        z_gm[1:3].set_value(0, 1)
    elif form == "no_buffer":
        t = asc.GlobalTensor()
        t.set_value(0, 1)
    else:
        z_gm.set_value(0.0, 1)


def test_python_numbers_stored_in_element_type() -> None:
    z = np.full(4, 9, np.float16)
    _gm_const_store[1](z, "int_to_float")
    assert_bits_equal(z, np.array([3.0, -0.0, 0.1, 9.0], np.float16), context="stores")


@pytest.mark.parametrize("form,match", [("float_to_int", "float"), ("slice_stop", "start only"),
                                        ("no_buffer", "set_global_buffer"), ("float_index", "integer")])
def test_bad_scalar_access_is_compile_error(form: str, match: str) -> None:
    with pytest.raises(asc.CompileError, match=match):
        _gm_const_store[1](np.zeros(4, np.int32), form)


@pytest.mark.skipif(torch is None, reason="GlobalTensor<bfloat16> needs a bfloat16 array (torch); bfloat16 "
                    "element access is tested in UB without torch")
def test_global_bfloat16_torch() -> None:
    bits = np.array([0x0000, 0x8000, 0x3F80, 0x7F7F, 0x0001, 0xFF80, 0x7FC0, 0x4049], np.uint16)
    x = torch.from_numpy(bits.view(np.int16).copy()).view(torch.bfloat16)
    z = torch.zeros(8, dtype=torch.bfloat16)
    _gm_copy[1](x, z, 8)
    assert_bits_equal(z.view(torch.int16).numpy().view(np.uint16), bits, fmt="bfloat16", context="bf16")
    z2 = torch.zeros(8, dtype=torch.bfloat16)
    _gm_arith[1](x, z2, 8)
    want = ((x.float() * 3).to(torch.bfloat16).float() + 1).to(torch.bfloat16)  # rounded after each op
    assert_bits_equal(z2.view(torch.int16).numpy().view(np.uint16), want.view(torch.int16).numpy().view(np.uint16),
                      fmt="bfloat16", context="bf16 arith")


# ---------------------------------------------------------------------------
# LocalTensor
# ---------------------------------------------------------------------------

@asc.jit
def _local_access(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int, npad: int, view: asc.ConstExpr[asc.DataType]):
    """UB copies of x and z seen as `view`; z[i] = x[n - 1 - i] element by element on the scalar unit."""
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    xr = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, UB_SLOT // x.dtype.sizeof())
    zr = asc.LocalTensor(z.dtype, asc.TPosition.VECOUT, UB_SLOT, UB_SLOT // z.dtype.sizeof())
    xl = asc.LocalTensor(view, asc.TPosition.VECIN, 0, UB_SLOT // view.sizeof())
    zl = asc.LocalTensor(view, asc.TPosition.VECOUT, UB_SLOT, UB_SLOT // view.sizeof())
    asc.data_copy(xr, x_gm, npad)
    asc.data_copy(zr, z_gm, npad)
    asc.set_flag(asc.HardEvent.MTE2_S, 0)
    asc.wait_flag(asc.HardEvent.MTE2_S, 0)
    for i in range(n):
        zl.set_value(i, xl.get_value(n - 1 - i))
    asc.set_flag(asc.HardEvent.S_MTE3, 0)
    asc.wait_flag(asc.HardEvent.S_MTE3, 0)
    asc.data_copy(z_gm, zr, npad)


@pytest.mark.parametrize("name", TYPES + ("bfloat16",))
def test_local_get_set_values_exact(name: str) -> None:
    st = storage(name)
    per_block = 32 // st.itemsize
    n = 37
    npad = -(-n // per_block) * per_block
    if name == "bfloat16":
        x = np.concatenate([np.array([0x0000, 0x8000, 0x0001, 0x7F7F, 0xFF80, 0x7FC0, 0x3F81], np.uint16),
                            f32_to_bf16_rne(np.linspace(-1e30, 1e30, npad - 7).astype(np.float32))])
    else:
        x = edge_values(name, npad, 3)
    z = np.zeros_like(x)
    z[n:] = x[n:]
    view = getattr(asc, "bool_" if name == "bool" else name)
    _local_access[1](x, z, n, npad, view)
    want = x.copy()
    want[:n] = x[:n][::-1]
    fmt = "bfloat16" if name == "bfloat16" else None
    if name.startswith("float") or fmt:
        assert_bits_equal(z, want, fmt=fmt, context=name)
    else:
        assert (z.view(np.uint8) == want.view(np.uint8)).all()
    if fmt:
        assert np.isnan(bf16_to_f32(z[n - 6:n - 5]))[0]  # the NaN pattern arrived as a NaN


@asc.jit
def _local_views(x: asc.GlobalAddress, z: asc.GlobalAddress, a: int, b: int):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    xl = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, 64)
    zl = asc.LocalTensor(x.dtype, asc.TPosition.VECOUT, 256, 64)
    asc.data_copy(xl, x_gm, 64)
    asc.duplicate(zl, 0, 64)
    asc.set_flag(asc.HardEvent.MTE2_S, 0)
    asc.wait_flag(asc.HardEvent.MTE2_S, 0)
    asc.set_flag(asc.HardEvent.V_S, 0)
    asc.wait_flag(asc.HardEvent.V_S, 0)
    zl[a:].set_value(0, xl[b:].get_value(0))
    zl[a:][1:].set_value(1, xl[b:][2:].get_value(3))
    zl.set_value(a + 4, xl(b).get_value(1) + xl.get_value(b))
    asc.set_flag(asc.HardEvent.S_MTE3, 0)
    asc.wait_flag(asc.HardEvent.S_MTE3, 0)
    asc.data_copy(z_gm, zl, 64)


@pytest.mark.parametrize("a,b", [(0, 0), (3, 5), (40, 50), (59, 0)])
def test_local_views(a: int, b: int) -> None:
    x = np.arange(1000, 1064, dtype=np.int32)
    z = np.full(64, -1, np.int32)
    _local_views[1](x, z, a, b)
    want = np.zeros(64, np.int32)
    want[a] = x[b]
    want[a + 2] = x[b + 5]
    want[a + 4] = x[b + 1] + x[b]
    assert (z == want).all()


@asc.jit
def _local_index(i: int, off: int):
    xl = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, 64)
    asc.duplicate(xl, 1.0, 64)
    asc.set_flag(asc.HardEvent.V_S, 0)
    asc.wait_flag(asc.HardEvent.V_S, 0)
    xl[off:].set_value(i, xl[off:].get_value(i) + 1)


@pytest.mark.parametrize("i,off,match", [(64, 0, "out of range"), (8, 56, "out of range"), (-1, 0, "negative"),
                                         (0, 65, "past its 64 elements")])
def test_local_index_faults(i: int, off: int, match: str) -> None:
    with pytest.raises(asc.KernelError, match=match) as info:
        _local_index[1](i, off)
    # LocalTensor.get_value / set_value, or LocalTensor[offset:] for the slice past the end
    assert info.value.api.startswith("LocalTensor")


def test_local_index_in_range() -> None:
    _local_index[1](63, 0)
    _local_index[1](7, 56)
    _local_index[1](0, 63)


def test_kernel_error_location() -> None:
    with pytest.raises(asc.KernelError) as info:
        _local_index[1](64, 0)
    e = info.value
    assert e.kernel == "_local_index" and e.block == 0
    assert e.filename.endswith("test_tensor_access.py")
    src = open(e.filename).read().splitlines()[e.line - 1]
    assert "set_value" in src or "get_value" in src


def test_access_values_are_numbers_of_the_type() -> None:
    """Guard for the helpers: NumPy float16 edge values are what the test means them to be."""
    v = edge_values("float16", 12, 0)
    assert v[7] == np.float16(2.0 ** -24) and np.isinf(v[9]) and np.isnan(v[11])
    assert storage("bfloat16") == np.uint16
