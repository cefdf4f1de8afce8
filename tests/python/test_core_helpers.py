"""The constants and small helpers of upstream pyasc's asc.language.core:
asc.property and the hardware properties, ceildiv, static_assert, number,
array, inline, get_shape_size and the void data type. Each in a kernel,
compile-time where upstream's is, a runtime value where upstream's is, and
each misuse a CompileError at the user's line."""

from __future__ import annotations

from typing import Any, List

import numpy as np
import pytest

import asc
import asc._C as C


def _out(kernel: Any, n: int = 8, dtype: Any = np.int32, *args: Any) -> List[Any]:
    out = np.full(n, -7, dtype)
    kernel[1](out, *args)
    return out.tolist()


def _compile_error(kernel: Any, *args: Any, cls: type = asc.CompileError) -> asc.CompileError:
    with pytest.raises(cls) as info:
        kernel[1](np.zeros(8, np.int32), *args)
    err = info.value
    assert err.filename.endswith("test_core_helpers.py") and err.line > 0, err
    assert err.hint and err.hint.startswith("hint: "), err
    return err


# ---- asc.property ------------------------------------------------------------------------------------------


@asc.jit(always_compile=True)
def _properties(x: asc.GlobalAddress):
    g = asc.GlobalTensor()
    g.set_global_buffer(x)
    g.set_value(0, asc.property(asc.DEFAULT_C0_SIZE))
    g.set_value(1, asc.property(asc.ONE_BLK_SIZE))
    # as upstream's matmul tutorial uses it: a byte count over C0
    g.set_value(2, 64 * asc.float32.sizeof() // asc.property(asc.DEFAULT_C0_SIZE))


def test_fixed_properties_are_runtime_values_of_their_types() -> None:
    assert _out(_properties, 3) == [32, 32, 8]
    ir = list(_properties.cache.values())[-1].ir  # (as built, before the passes fold it)
    assert "value = 32 : i32" in ir and "value = 32 : i16" in ir  # int32 and int16, as upstream's
    assert repr(asc.ONE_BLK_SIZE) == "asc.ONE_BLK_SIZE" and asc.ONE_BLK_SIZE.dtype == asc.int16
    assert asc.DEFAULT_C0_SIZE.cpp == "AscendC::DEFAULT_C0_SIZE"


@asc.jit(always_compile=True)
def _memory_sizes(x: asc.GlobalAddress):
    g = asc.GlobalTensor()
    g.set_global_buffer(x)
    g.set_value(0, asc.property(asc.TOTAL_L0C_SIZE))
    g.set_value(1, asc.property(asc.TOTAL_L1_SIZE))


@pytest.mark.parametrize("platform", ["Ascend910B1", "Ascend910B4", "Ascend910_9392"])
def test_memory_sizes_come_from_the_platform_table(platform: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from asc.lib.runtime import state

    monkeypatch.setattr(state, "soc_version", platform)
    row = C.platform(platform)
    # the devkit's constants of NPU arch 2201: L0C 128 KiB; L1 512 KiB less 128 bytes for Matmul's messages
    assert (row["l0c_size"], row["l1_size"], row["l1_reserved"]) == (128 * 1024, 512 * 1024, 128)
    assert _out(_memory_sizes, 2) == [128 * 1024, 512 * 1024 - 128]
    assert asc.TOTAL_L1_SIZE.value(platform) == 512 * 1024 - 128


@asc.jit(always_compile=True)
def _property_of_a_number(x: asc.GlobalAddress):
    asc.property(32)


@asc.jit(always_compile=True)
def _property_used_as_a_number(x: asc.GlobalAddress):
    asc.ONE_BLK_SIZE + 1


def test_property_misuse() -> None:
    err = _compile_error(_property_of_a_number)
    assert "asc.property takes a hardware property, got the int 32" in err.message
    assert "asc.TOTAL_L1_SIZE" in err.hint
    err = _compile_error(_property_used_as_a_number)
    assert err.message == "asc.ONE_BLK_SIZE is a hardware property, not a number"
    assert err.hint == "hint: write asc.property(asc.ONE_BLK_SIZE) for its value in a kernel"
    with pytest.raises(RuntimeError, match="inside an @asc.jit function"):
        asc.property(asc.ONE_BLK_SIZE)  # upstream's needs a kernel too


# ---- asc.ceildiv -----------------------------------------------------------------------------------------


def test_ceildiv_of_python_integers_is_upstreams_formula() -> None:
    for x, y in [(0, 4), (1, 4), (4, 4), (5, 4), (1023, 32), (1024, 32), (-5, 4), (7, -2), (2**70, 3)]:
        assert asc.ceildiv(x, y) == (x + y - 1) // y
    assert asc.ceildiv(asc.ConstExpr(10), 3) == 4


@asc.jit(always_compile=True)
def _ceildiv(x: asc.GlobalAddress, n: int, d: int, m: asc.ConstExpr[int]):
    g = asc.GlobalTensor()
    g.set_global_buffer(x)
    g.set_value(0, asc.ceildiv(n, 32))
    g.set_value(1, asc.ceildiv(100, d))
    g.set_value(2, asc.ceildiv(n, d))
    for i in asc.static_range(asc.ceildiv(m, 4)):  # compile-time: a static_range bound
        g.set_value(3 + i, i)


@pytest.mark.parametrize("n,d", [(0, 1), (1, 7), (32, 32), (33, 32), (1000, 3)])
def test_ceildiv_of_runtime_integers_builds_ir(n: int, d: int) -> None:
    out = _out(_ceildiv, 8, np.int32, n, d, 10)
    assert out[:3] == [-(-n // 32), -(-100 // d), -(-n // d)]
    assert out[3:] == [0, 1, 2, -7, -7]  # ceildiv(10, 4) == 3 iterations


def test_ceildiv_by_a_runtime_zero_is_a_kernel_error() -> None:
    with pytest.raises(asc.KernelError, match="division by zero"):
        _ceildiv[1](np.zeros(8, np.int32), 5, 0, 4)


@asc.jit(always_compile=True)
def _ceildiv_by_zero(x: asc.GlobalAddress, n: int):
    asc.ceildiv(n, 0)


@asc.jit(always_compile=True)
def _ceildiv_of_a_float(x: asc.GlobalAddress, n: int):
    asc.ceildiv(2.5, n)


@asc.jit(always_compile=True)
def _ceildiv_of_a_runtime_float(x: asc.GlobalAddress, f: float):
    asc.ceildiv(8, f)


@asc.jit(always_compile=True)
def _ceildiv_of_a_bool(x: asc.GlobalAddress, n: int):
    asc.ceildiv(n, True)


def test_ceildiv_misuse() -> None:
    assert "division by zero" in _compile_error(_ceildiv_by_zero, 3).message
    assert "`x` must be an integer" in _compile_error(_ceildiv_of_a_float, 3).message
    assert "`y` must be an integer (a number or a runtime integer), got a runtime float32 value" in \
        _compile_error(_ceildiv_of_a_runtime_float, 2.5).message
    assert "got the bool True" in _compile_error(_ceildiv_of_a_bool, 3).message
    with pytest.raises(asc.CompileError, match="division by zero"):
        asc.ceildiv(1, 0)


# ---- asc.static_assert -------------------------------------------------------------------------------------


@asc.jit(always_compile=True)
def _static_assert(x: asc.GlobalAddress, m: asc.ConstExpr[int]):
    asc.static_assert(m % 8 == 0, "m must be a multiple of 8")
    asc.static_assert(asc.float32.sizeof() == 4)
    g = asc.GlobalTensor()
    g.set_global_buffer(x)
    g.set_value(0, m)


@asc.jit(always_compile=True)
def _static_assert_runtime(x: asc.GlobalAddress, n: int):
    asc.static_assert(n > 0)


@asc.jit(always_compile=True)
def _static_assert_bad_message(x: asc.GlobalAddress, n: int):
    asc.static_assert(True, 5)


@asc.jit(always_compile=True)
def _static_assert_number(x: asc.GlobalAddress, n: int):
    asc.static_assert(1)


def test_static_assert() -> None:
    assert _out(_static_assert, 1, np.int32, 16) == [16]
    err = _compile_error(_static_assert, 12)
    assert err.message == "asc.static_assert failed: m must be a multiple of 8"
    assert "asc.static_assert(m % 8 == 0" in str(err)  # quotes the line
    assert "known at compile time, got a runtime bool value" in _compile_error(_static_assert_runtime, 3).message
    assert "`message` must be a string, got the int 5" in _compile_error(_static_assert_bad_message, 3).message
    assert "got the int 1" in _compile_error(_static_assert_number, 3).message
    asc.static_assert(np.int32(4) == 4)  # (a NumPy bool is a bool; outside a kernel too, as upstream)
    with pytest.raises(asc.CompileError, match="failed: no"):
        asc.static_assert(False, "no")


# ---- asc.number ----------------------------------------------------------------------------------------------


@asc.jit(always_compile=True)
def _numbers(x: asc.GlobalAddress, n: int, f: float):
    g = asc.GlobalTensor()
    g.set_global_buffer(x)
    g.set_value(0, asc.number(3.7, asc.int32))  # a float for an integer type is truncated, as upstream
    g.set_value(1, asc.number(255, asc.uint8) + 1)  # uint8 arithmetic: 0
    g.set_value(2, asc.number(f, asc.int32))  # a runtime value is cast
    g.set_value(3, asc.number(n, asc.int16) * 2)
    g.set_value(4, asc.int32(asc.number(2, asc.float16) * 1.25))
    g.set_value(5, asc.number(True, asc.int32))


def test_number_is_a_runtime_value_of_its_type() -> None:
    assert _out(_numbers, 6, np.int32, 21, -7.9) == [3, 0, -7, 42, 2, 1]
    ir = list(_numbers.cache.values())[-1].ir
    assert ": () -> ui8" in ir and ": () -> f16" in ir


@asc.jit(always_compile=True)
def _number_too_big(x: asc.GlobalAddress):
    asc.number(70000, asc.int16)


@asc.jit(always_compile=True)
def _number_negative_unsigned(x: asc.GlobalAddress):
    asc.number(-1, asc.uint32)


@asc.jit(always_compile=True)
def _number_of_inf(x: asc.GlobalAddress):
    asc.number(float("inf"), asc.int32)


@asc.jit(always_compile=True)
def _number_without_a_dtype(x: asc.GlobalAddress):
    asc.number(5, 5)


@asc.jit(always_compile=True)
def _number_of_void(x: asc.GlobalAddress):
    asc.number(5, asc.void)


@asc.jit(always_compile=True)
def _number_of_a_tensor(x: asc.GlobalAddress):
    g = asc.GlobalTensor()
    g.set_global_buffer(x)
    asc.number(g, asc.int32)


def test_number_misuse() -> None:
    assert "70000 does not fit int16" in _compile_error(_number_too_big).message
    assert "-1 does not fit uint32" in _compile_error(_number_negative_unsigned).message
    _compile_error(_number_of_inf)
    assert "`dtype` must be a data type" in _compile_error(_number_without_a_dtype).message
    assert "got the data type asc.void" in _compile_error(_number_of_void).message
    assert "must be a number or a runtime scalar, got a GlobalTensor (int32)" in \
        _compile_error(_number_of_a_tensor).message


# ---- asc.array -------------------------------------------------------------------------------------------------


@asc.jit(always_compile=True)
def _arrays(x: asc.GlobalAddress, n: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(x)
    shape = asc.array(asc.int32, (4, n, 2))
    filled = asc.array(asc.uint8, 3, fill_value=300 - 45)
    free = asc.array(asc.int32, 2)
    free.__setitem__(0, n + 1)  # (a[i] = v once the visitor assigns subscripts; see docs/api.md)
    free.__setitem__(1, 9)
    total = 0
    for i in asc.static_range(len(shape)):
        total = total + shape[i]
    g.set_value(0, total)
    g.set_value(1, filled[2] + 1)  # uint8 arithmetic: 255 + 1
    g.set_value(2, free[0] * free[1])
    g.set_value(3, len(filled))


def test_array_elements_are_runtime_values_of_its_type() -> None:
    assert _out(_arrays, 4, np.int32, 5) == [11, 0, 54, 3]


@asc.jit(always_compile=True)
def _array_runtime_index(x: asc.GlobalAddress, n: int):
    a = asc.array(asc.int32, (1, 2))
    a[n]


@asc.jit(always_compile=True)
def _array_out_of_range(x: asc.GlobalAddress, n: int):
    a = asc.array(asc.int32, (1, 2))
    a[2]


@asc.jit(always_compile=True)
def _array_unwritten(x: asc.GlobalAddress, n: int):
    a = asc.array(asc.int32, 2)
    a[1]


@asc.jit(always_compile=True)
def _array_written_in_a_runtime_if(x: asc.GlobalAddress, n: int):
    a = asc.array(asc.int32, 2, fill_value=0)
    if n > 0:
        a.__setitem__(0, 1)


@asc.jit(always_compile=True)
def _array_runtime_length(x: asc.GlobalAddress, n: int):
    asc.array(asc.int32, n)


@asc.jit(always_compile=True)
def _array_empty(x: asc.GlobalAddress, n: int):
    asc.array(asc.int32, ())


@asc.jit(always_compile=True)
def _array_values_and_fill(x: asc.GlobalAddress, n: int):
    asc.array(asc.int32, (1, 2), 0)


@asc.jit(always_compile=True)
def _array_value_too_big(x: asc.GlobalAddress, n: int):
    asc.array(asc.int8, (1, 200))


@asc.jit(always_compile=True)
def _array_of_no_dtype(x: asc.GlobalAddress, n: int):
    asc.array(4, (1, 2))


def test_array_misuse() -> None:
    err = _compile_error(_array_runtime_index, 1, cls=asc.UnsupportedError)
    assert "indexed by a runtime value" in err.message
    assert "out of range for an asc.array of 2 elements" in _compile_error(_array_out_of_range, 1).message
    assert "element 1 of an asc.array is read before it is written" in _compile_error(_array_unwritten, 1).message
    err = _compile_error(_array_written_in_a_runtime_if, 1, cls=asc.UnsupportedError)
    assert "inside a runtime `if` or loop" in err.message
    assert "known at compile time" in _compile_error(_array_runtime_length, 1).message
    assert "give from 1 to" in _compile_error(_array_empty, 1).message
    assert "fill_value cannot be given together" in _compile_error(_array_values_and_fill, 1).message
    assert "value 1 200 does not fit int8" in _compile_error(_array_value_too_big, 1).message
    assert "`dtype` must be a data type" in _compile_error(_array_of_no_dtype, 1).message


# ---- asc.inline, asc.get_shape_size, asc.void ------------------------------------------------------------------


@asc.jit(always_compile=True)
def _inline(x: asc.GlobalAddress, n: int):
    asc.inline("AscendC::PipeBarrier<PIPE_ALL>();")


@asc.jit(always_compile=True)
def _inline_of_a_number(x: asc.GlobalAddress, n: int):
    asc.inline(5)


@asc.jit(always_compile=True)
def _inline_bad_args(x: asc.GlobalAddress, n: int):
    asc.inline("f({0});", n)


def test_inline_is_not_supported_on_the_simulator() -> None:
    err = _compile_error(_inline, 1, cls=asc.UnsupportedError)
    assert "cannot run on the simulator" in err.message and "asc API calls" in err.hint
    assert "`code` must be a string" in _compile_error(_inline_of_a_number, 1).message
    assert "`args` must be a tuple" in _compile_error(_inline_bad_args, 1).message


@asc.jit(always_compile=True)
def _shape_size(x: asc.GlobalAddress, n: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(x)
    g.set_value(0, asc.get_shape_size(asc.ShapeInfo([2, 3, 4])))  # compile-time dimensions: folded
    g.set_value(1, asc.get_shape_size(asc.ShapeInfo([2, n, 4])))  # a runtime one: AscendC::GetShapeSize
    g.set_value(2, asc.get_shape_size(asc.ShapeInfo()))  # no dimensions: 1, as the devkit's loop gives


@asc.jit(always_compile=True)
def _shape_size_of_a_number(x: asc.GlobalAddress, n: int):
    asc.get_shape_size(4)


def test_get_shape_size() -> None:
    assert asc.get_shape_size(asc.ShapeInfo([2, 3, 4])) == 24  # in host code too
    assert _out(_shape_size, 3, np.int32, 5) == [24, 40, 1]
    compiled = next(iter(_shape_size.cache.values()))
    assert compiled.ir_text().count('"asc.get_shape_size"') == 1  # (the others are folded)
    assert "AscendC::GetShapeSize(" in compiled.ascendc()
    assert "takes an asc.ShapeInfo, got the int 4" in _compile_error(_shape_size_of_a_number, 1).message


def test_void_is_upstreams_data_type() -> None:
    assert isinstance(asc.void, asc.DataType) and asc.void.is_void() and asc.void.name == "void"
    assert asc.void is asc.language.core.dtype.void
    assert not asc.void.is_numeric()
