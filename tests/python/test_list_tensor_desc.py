"""TensorDesc and ListTensorDesc on the simulator against NumPy: a list of 1-3 tensors of various dtypes and
shapes passed as one GM address (asc.TensorList on the host, or a list laid out by hand as the devkit's
example does), read back with get_desc / get_data_ptr / get_data_obj; the devkit's checks as KernelErrors
and the API's misuse as CompileErrors.

The layout (uint64 words): the data pointers' byte offset; per tensor dim | index << 32 and dim shape words;
the data pointers. In the simulator a data pointer is (GM buffer index + 1) << 40 | byte offset.
"""

from typing import Any, List

import numpy as np
import pytest
from kernels_util import ascendc, fails_at

import asc

DTYPES = ("float16", "float32", "int8", "int16", "int32", "uint8", "int64")
SHAPES = {1: [(5,), (1,), (9,)], 2: [(2, 3), (1, 4), (3, 1)], 3: [(2, 1, 3), (1, 2, 2), (2, 2, 1)]}
MAX_ELEMS = 16


def values(shape: Any, dtype: str, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return rng.integers(-50 if dtype[0] != "u" else 0, 100, size=shape).astype(dtype)


@asc.jit
def read_all(lst: asc.GlobalAddress, meta: asc.GlobalAddress, data: asc.GlobalAddress, n: int,
             dtype: asc.ConstExpr[Any]):
    l_desc = asc.ListTensorDesc(data=lst, length=0xffffffff, shape_size=0xffffffff)
    d = asc.TensorDesc(dtype=dtype)
    d.set_shape_addr(0x1000)
    m = asc.GlobalTensor()
    m.set_global_buffer(meta)
    out = asc.GlobalTensor()
    out.set_global_buffer(data)
    m.set_value(0, l_desc.get_size())
    for i in range(n):
        l_desc.get_desc(d, i)
        m.set_value(1 + i * 6, d.get_dim())
        m.set_value(2 + i * 6, d.get_index())
        for k in range(d.get_dim()):
            m.set_value(3 + i * 6 + k, d.get_shape(k))
        t = d.get_data_obj()
        m.set_value(6 + i * 6, t.get_size())
        # the data, through the tensor and through the list's own pointer
        g = asc.GlobalTensor()
        g.set_global_buffer(l_desc.get_data_ptr(i, dtype))
        e = asc.uint64(1)
        for k in range(d.get_dim()):
            e = e * d.get_shape(k)
        for j in range(e):
            out.set_value(i * 2 * MAX_ELEMS + j, t.get_value(j))
            out.set_value(i * 2 * MAX_ELEMS + MAX_ELEMS + j, g.get_value(j))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", [1, 2, 3])
@pytest.mark.parametrize("dim", [1, 2, 3])
def test_get_desc_reads_shapes_and_data(dtype: str, n: int, dim: int) -> None:
    arrays = [values(SHAPES[dim][i], dtype, 10 * n + i) for i in range(n)]
    meta = np.zeros(1 + 6 * n, dtype=np.uint64)
    data = np.zeros(2 * MAX_ELEMS * n, dtype=dtype)
    read_all[1](asc.TensorList(arrays), meta, data, n, getattr(asc, dtype))
    assert meta[0] == n
    for i, a in enumerate(arrays):
        rec = meta[1 + 6 * i: 7 + 6 * i]
        assert rec[0] == dim and rec[1] == i
        assert tuple(int(s) for s in rec[2: 2 + dim]) == a.shape
        # GetDataObj's size: sizeof(T) times the shape's product, as the devkit computes it
        assert rec[5] == a.size * a.itemsize
        got = data[i * 2 * MAX_ELEMS: (i + 1) * 2 * MAX_ELEMS]
        np.testing.assert_array_equal(got[: a.size], a.ravel())
        np.testing.assert_array_equal(got[MAX_ELEMS: MAX_ELEMS + a.size], a.ravel())


@asc.jit
def mixed(lst: asc.GlobalAddress, out16: asc.GlobalAddress, out32: asc.GlobalAddress, out8: asc.GlobalAddress):
    l_desc = asc.ListTensorDesc()
    l_desc.init(data=lst)
    o16 = asc.GlobalTensor()
    o16.set_global_buffer(out16)
    o32 = asc.GlobalTensor()
    o32.set_global_buffer(out32)
    o8 = asc.GlobalTensor()
    o8.set_global_buffer(out8)
    a = asc.GlobalTensor()
    a.set_global_buffer(l_desc.get_data_ptr(0, asc.float16))
    b = asc.GlobalTensor()
    b.set_global_buffer(l_desc.get_data_ptr(1, asc.int32))
    c = asc.GlobalTensor()
    c.set_global_buffer(l_desc.get_data_ptr(2, asc.int8))
    for i in range(4):
        o16.set_value(i, a.get_value(i))
        o32.set_value(i, b.get_value(i))
        o8.set_value(i, c.get_value(i))
        b.set_value(i, b.get_value(i) + 1000)  # written in place, through the pointer


@pytest.mark.parametrize("with_shape", [True, False])
def test_get_data_ptr_per_dtype_and_writes_in_place(with_shape: bool) -> None:
    a = np.array([1.5, -0.0, 65504, -2], dtype=np.float16)
    b = np.array([7, -8, 2**31 - 1, 0], dtype=np.int32)
    c = np.array([-128, 127, 3, 4], dtype=np.int8)
    b0 = b.copy()
    out16, out32, out8 = np.zeros(4, np.float16), np.zeros(4, np.int32), np.zeros(4, np.int8)
    mixed[1](asc.TensorList([a, b, c], with_shape=with_shape), out16, out32, out8)
    np.testing.assert_array_equal(out16.view(np.uint16), a.view(np.uint16))  # -0.0 kept
    np.testing.assert_array_equal(out32, b0)
    np.testing.assert_array_equal(out8, c)
    np.testing.assert_array_equal(b, (b0.astype(np.int64) + 1000).astype(np.int32))


def word_list(dim: int, shapes: List[Any], data_bytes: List[bytes], self_index: int = 0) -> np.ndarray:
    """A list laid out by hand in one buffer (the devkit example's struct), the data after it: its pointers
    point into the list's own buffer (kernel argument self_index)."""
    n = len(shapes)
    head = 1 + n * (1 + dim)
    words: List[int] = [8 * head]
    for i, s in enumerate(shapes):
        words += [dim | (i << 32)] + list(s)
    base = 8 * (head + n)
    ptrs = []
    for blob in data_bytes:
        ptrs.append(((self_index + 1) << 40) | base)
        base += len(blob)
    raw = np.array(words + ptrs, dtype=np.uint64).tobytes() + b"".join(data_bytes)
    return np.frombuffer(raw, dtype=np.uint8).copy()


@asc.jit
def hand_made(lst: asc.GlobalAddress, out: asc.GlobalAddress, index: int, offset: int):
    l_desc = asc.ListTensorDesc(data=lst)
    d = asc.TensorDesc(dtype=asc.int32)
    d.set_shape_addr(8)
    l_desc.get_desc(d, index)
    o = asc.GlobalTensor()
    o.set_global_buffer(out)
    o.set_value(0, d.get_shape(offset))
    o.set_value(1, d.get_data_obj().get_value(1))
    o.set_value(2, l_desc.get_size())


def test_hand_made_list_in_one_buffer() -> None:
    x = np.array([1, 2, 3, 4, 5, 6], np.int32)
    y = np.array([10, 20, 30], np.int32)
    lst = word_list(2, [(2, 3), (3, 1)], [x.tobytes(), y.tobytes()])
    out = np.zeros(3, np.int64)
    hand_made[1](lst, out, 1, 0)
    assert list(out) == [3, 20, 2]
    hand_made[1](lst, out, 0, 1)
    assert list(out) == [3, 2, 2]


@asc.jit
def checked(lst: asc.GlobalAddress, length: asc.ConstExpr[int], shape_size: asc.ConstExpr[int],
            out: asc.GlobalAddress):
    l_desc = asc.ListTensorDesc(data=lst, length=length, shape_size=shape_size)  # decode
    o = asc.GlobalTensor()
    o.set_global_buffer(out)
    o.set_value(0, l_desc.get_size())


def test_length_and_shape_size_are_checked() -> None:
    tl = asc.TensorList([np.zeros((2, 2), np.float32), np.zeros((1, 3), np.float32)])
    out = np.zeros(1, np.uint32)
    checked[1](tl, tl.length, tl.shape_size, out)
    assert out[0] == 2 and tl.length == 8 * (1 + 2 * 3 + 2)
    checked[1](tl, 0xFFFFFFFF, 3, out)  # only one of them given: nothing checked
    checked[1](tl, 5, 0xFFFFFFFF, out)
    fails_at(checked, (tl, tl.length, 3, out), "# decode", "ListTensorDesc", "holds 2 tensors", "shape_size 3")
    fails_at(checked, (tl, tl.length + 8, 2, out), "# decode", "in 72 bytes", "length 80")


@asc.jit
def bad_use(lst: asc.GlobalAddress, out: asc.GlobalAddress, case: int, index: int):
    l_desc = asc.ListTensorDesc(data=lst)
    d = asc.TensorDesc(dtype=asc.float32)
    o = asc.GlobalTensor()
    o.set_global_buffer(out)
    if case == 0:
        d.set_shape_addr(16)
        l_desc.get_desc(d, index)  # get_desc
    elif case == 2:
        l_desc.get_desc(d, index)  # no shape address
    elif case == 3:
        d.set_shape_addr(0)  # null shape address
    elif case == 4:
        d.set_shape_addr(16)
        l_desc.get_desc(d, 0)
        o.set_value(0, d.get_shape(index))  # get_shape


def two() -> Any:
    return asc.TensorList([np.ones((2, 2), np.float32), np.ones((3, 3), np.float32)])


@pytest.mark.parametrize("index", [2, 3, 1000, 2**31 - 1])
def test_bad_index_is_a_kernel_error(index: int) -> None:
    out = np.zeros(2, np.float32)
    fails_at(bad_use, (two(), out, 0, index), "# get_desc", "ListTensorDesc.get_desc", f"index {index}",
             "list of 2 tensors")


def test_other_kernel_errors() -> None:
    out = np.zeros(2, np.float32)
    fails_at(bad_use, (two(), out, 2, 0), "# no shape address", "set_shape_addr first")
    fails_at(bad_use, (two(), out, 3, 0), "# null shape address", "null shape address")
    fails_at(bad_use, (two(), out, 4, 2), "# get_shape", "offset 2", "dim 2")
    fails_at(bad_use, (asc.TensorList([np.ones(3, np.float32)], with_shape=False), out, 0, 0), "# get_desc",
             "data pointers only")


@asc.jit
def data_ptr_at(lst: asc.GlobalAddress, out: asc.GlobalAddress, index: int):
    l_desc = asc.ListTensorDesc(data=lst)
    g = asc.GlobalTensor()
    g.set_global_buffer(l_desc.get_data_ptr(index, asc.float32))  # get_data_ptr
    o = asc.GlobalTensor()
    o.set_global_buffer(out)
    o.set_value(0, g.get_value(0))


def test_get_data_ptr_bad_index_and_bad_pointers() -> None:
    out = np.zeros(1, np.float32)
    fails_at(data_ptr_at, (two(), out, 2), "# get_data_ptr", "ListTensorDesc.get_data_ptr", "index 2")
    x = np.array([5, 6], np.float32)
    good = word_list(1, [(2,)], [x.tobytes()])
    data_ptr_at[1](good, out, 0)
    assert out[0] == 5
    ptr_at = 8 * 3  # word 3: the data pointer
    for word, what in [(0, "is null"), ((7 << 40), "not an address in this launch"),
                       ((1 << 40) | 10**6, "not an address in this launch"), (0xDEADBEEF, "not an address"),
                       ((3 << 40), "not an address")]:  # the launch has 2 buffers
        bad = good.copy()
        bad[ptr_at: ptr_at + 8] = np.frombuffer(np.uint64(word).tobytes(), np.uint8)
        fails_at(data_ptr_at, (bad, out, 0), "# get_data_ptr", what)
    # a pointer to the output buffer (argument 1) is a valid GM address
    bad = good.copy()
    bad[ptr_at: ptr_at + 8] = np.frombuffer(np.uint64(2 << 40).tobytes(), np.uint8)
    out[0] = 42
    data_ptr_at[1](bad, out, 0)
    assert out[0] == 42


@asc.jit
def decode_only(lst: asc.GlobalAddress):
    l_desc = asc.ListTensorDesc(data=lst)  # decode
    l_desc.get_size()


def test_malformed_headers_are_kernel_errors() -> None:
    good = word_list(2, [(2, 3)], [bytes(24)])
    bad = good.copy().view(np.uint64)
    bad[0] = 8 * 7  # data pointers not where the descriptors end
    fails_at(decode_only, (bad.view(np.uint8),), "# decode", "inconsistent")
    bad = good.copy().view(np.uint64)
    bad[0] = 2**63  # an offset no address holds
    fails_at(decode_only, (bad.view(np.uint8),), "# decode", "too large")
    # shorter than a header: an overrun (with the sanitizer on, the words past the end read as zeros, which
    # make an inconsistent header)
    fails_at(decode_only, (np.zeros(4, np.uint8),), "# decode", "ListTensorDesc")
    # dim 0 requires the marker word and offset 24
    bad = np.array([24, 1 << 32, 0, 0], np.uint64)
    fails_at(decode_only, (bad.view(np.uint8),), "# decode", "inconsistent")


@asc.jit
def many_dims(lst: asc.GlobalAddress):
    l_desc = asc.ListTensorDesc(data=lst)
    d = asc.TensorDesc(dtype=asc.uint8)
    d.set_shape_addr(1)
    l_desc.get_desc(d, 0)  # get_desc


def test_more_dims_than_the_simulator_holds() -> None:
    fails_at(many_dims, (asc.TensorList([np.zeros((1,) * 9, np.uint8)]),), "# get_desc", "up to 8")
    many_dims[1](asc.TensorList([np.zeros((1,) * 8, np.uint8)]))


@asc.jit
def fresh_desc(out: asc.GlobalAddress):
    d = asc.TensorDesc()
    l_desc = asc.ListTensorDesc()
    o = asc.GlobalTensor()
    o.set_global_buffer(out)
    o.set_value(0, d.get_dim())
    o.set_value(1, d.get_index())
    o.set_value(2, l_desc.get_size())
    o.set_value(3, d.get_data_obj().get_size())
    l_desc.get_desc(d, 0)  # uninitialised


def test_fresh_objects_and_uninitialised_list() -> None:
    out = np.full(4, 9, np.uint64)
    err = fails_at(fresh_desc, (out,), "# uninitialised", "never initialised")
    assert err is not None


@asc.jit
def emitted(lst: asc.GlobalAddress, out: asc.GlobalAddress):
    l_desc = asc.ListTensorDesc(data=lst, length=0xffffffff, shape_size=0xffffffff)
    d = asc.TensorDesc(dtype=asc.float16)
    d.set_shape_addr(64)
    l_desc.get_desc(d, 0)
    o = asc.GlobalTensor()
    o.set_global_buffer(out)
    o.set_value(0, d.get_data_obj().get_value(0))
    g = asc.GlobalTensor()
    g.set_global_buffer(l_desc.get_data_ptr(0, asc.float16))
    h = asc.GlobalTensor()
    h.set_global_buffer(d.get_data_ptr())
    o.set_value(1, g.get_value(1) + h.get_value(0) - h.get_value(0))


def test_ascendc() -> None:
    a = np.array([1, 2], np.float16)
    out = np.zeros(2, np.float16)
    emitted[1](asc.TensorList([a]), out)
    np.testing.assert_array_equal(out, a)
    text = ascendc(emitted)
    assert "AscendC::ListTensorDesc l_desc(" in text
    assert "AscendC::TensorDesc<half> d;" in text
    assert "d.SetShapeAddr(reinterpret_cast<uint64_t *>(" in text
    assert "l_desc.GetDesc(d, " in text
    assert "d.GetDataObj()" in text
    assert "l_desc.GetDataPtr<half>(" in text


@pytest.mark.parametrize("body, fragment", [
    ("asc.TensorDesc(dtype=3)", "'dtype' must be an asc data type"),
    ("asc.ListTensorDesc(data=5)", "'data' must be a GlobalAddress"),
    ("asc.ListTensorDesc(length=4)", "need 'data'"),
    ("asc.ListTensorDesc(data=x).get_desc(5, 0)", "'desc' must be an asc.TensorDesc"),
    ("asc.ListTensorDesc(data=x).get_data_ptr(0, 'float')", "'dtype' must be an asc data type"),
    ("asc.ListTensorDesc(data=x).get_data_ptr(1.5, asc.float32)", "'index' must be an integer"),
    ("asc.TensorDesc().get_shape(-1)", "must not be negative"),
    ("asc.TensorDesc().set_shape_addr(2.0)", "must be an integer"),
])
def test_compile_errors(body: str, fragment: str, tmp_path) -> None:
    ns: dict = {"asc": asc}
    src = f"def k(x: asc.GlobalAddress):\n    {body}  # here\n"
    path = str(tmp_path / "kernel.py")
    with open(path, "w") as f:
        f.write(src)
    exec(compile(src, path, "exec"), ns)
    kernel = asc.jit(ns["k"])
    with pytest.raises(asc.CompileError) as info:
        kernel[1](np.zeros(8, np.uint8))
    assert fragment in str(info.value), str(info.value)
    assert info.value.line == 2


def test_host_tensor_list_errors() -> None:
    with pytest.raises(ValueError, match="different numbers of dimensions"):
        asc.TensorList([np.zeros(2), np.zeros((2, 2))])
    with pytest.raises(ValueError, match="at least one"):
        asc.TensorList([])
    with pytest.raises(TypeError, match="item 1"):
        asc.TensorList([np.zeros(2), [1, 2]])
    with pytest.raises(TypeError, match="list of arrays"):
        asc.TensorList(np.zeros(2))
    with pytest.raises(ValueError, match="0-d"):
        asc.TensorList([np.zeros(())])
    assert asc.TensorList([np.zeros(())], with_shape=False).length == 32

    @asc.jit
    def takes_int(n: int):
        pass

    with pytest.raises(TypeError, match="annotate its parameter asc.GlobalAddress"):
        takes_int[1](asc.TensorList([np.zeros(2)]))


@asc.jit
def count_of(lst_desc: Any, d: Any) -> int:
    lst_desc.get_desc(d, 1)
    return lst_desc.get_size() + d.get_dim()


@asc.jit
def through_device_function(lst: asc.GlobalAddress, out: asc.GlobalAddress, flag: int):
    l_desc = asc.ListTensorDesc(data=lst)
    d = asc.TensorDesc(dtype=asc.int32)
    d.set_shape_addr(8)
    o = asc.GlobalTensor()
    o.set_global_buffer(out)
    o.set_value(0, count_of(l_desc, d))
    o.set_value(1, d.get_dim())  # passed by value, as in C++: the caller's desc is unchanged
    if flag > 0:
        l_desc.get_desc(d, 0)
    o.set_value(2, d.get_dim())


@pytest.mark.parametrize("flag", [0, 1])
def test_device_functions_and_branches(flag: int) -> None:
    out = np.zeros(3, np.int64)
    through_device_function[1](asc.TensorList([np.zeros((2, 2, 2), np.int32), np.zeros((1, 1, 1), np.int32)]),
                               out, flag)
    assert list(out) == [2 + 3, 0, 3 * flag]


@asc.jit
def write_past(lst: asc.GlobalAddress, i: int):
    l_desc = asc.ListTensorDesc(data=lst)
    g = asc.GlobalTensor()
    g.set_global_buffer(l_desc.get_data_ptr(1, asc.int16))
    g.set_value(i, 7)  # write


def test_accesses_through_a_pointer_are_bounded_by_its_array() -> None:
    a, b = np.zeros(4, np.int16), np.zeros(3, np.int16)
    write_past[1](asc.TensorList([a, b]), 2)
    assert list(b) == [0, 0, 7] and not a.any()
    err = fails_at(write_past, (asc.TensorList([a, b]), 3), "# write", "kernel argument 3")  # (lst, i, then the arrays)
    assert isinstance(err, asc.KernelError)
    assert list(b) == [0, 0, 7] and not a.any()  # nothing written outside the arrays
