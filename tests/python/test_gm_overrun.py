"""Global-memory overruns: an access past the end (or before the start) of a
kernel argument is a sanitizer finding. By default a SanitizerError at the
call (which then touches nothing); with sanitize="warn" a SanitizerWarning,
and the launch goes on with reads outside the argument seeing zeros and
writes outside it going nowhere; with the sanitizer off a KernelError. Host
memory outside the arguments is never touched in any mode: every test passes
a view into a larger array and checks the bytes around it.
"""

from __future__ import annotations

import warnings
from typing import Any, List, Tuple

import numpy as np
import pytest

import asc

N = 64  # elements of the argument the kernels see
PAD = 32  # guard elements before and after it


def _guarded(fill: float = 7.0) -> Tuple[np.ndarray, np.ndarray]:
    """(the whole array, the view of N elements the kernel gets)."""
    whole = np.full(PAD + N + PAD, fill, np.float32)
    return whole, whole[PAD:PAD + N]


def _guards_intact(whole: np.ndarray, fill: float = 7.0) -> bool:
    return bool(np.all(whole[:PAD] == fill) and np.all(whole[PAD + N:] == fill))


@asc.jit
def _copy_tile(x: asc.GlobalAddress, z: asc.GlobalAddress, start: int, count: asc.ConstExpr[int]):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z)
    t = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 0, count)
    asc.data_copy(t, x_gm[start:], count)
    asc.set_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.data_copy(z_gm[start:], t, count)


def _sanitizer_warnings(record: List[Any]) -> List[asc.SanitizerWarning]:
    return [w.message for w in record if isinstance(w.message, asc.SanitizerWarning)]


def test_default_is_a_sanitizer_error_naming_the_call_and_the_overrun() -> None:
    xw, x = _guarded(1.0)
    zw, z = _guarded()
    with pytest.raises(asc.SanitizerError) as info:
        _copy_tile[1](x, z, 40, 32)  # elements [40, 72) of 64
    e = info.value
    assert e.kind == "overrun" and e.api == "asc.data_copy" and e.line > 0
    assert e.gm_arg == 0 and e.byte_range == (160, 288) and e.memory == "GM"
    assert "32 bytes past its end" in e.message and "reads bytes [160, 288)" in e.message
    assert e.fix and "min(tile, total - offset)" in e.fix
    # the copy that overran touched nothing, and nothing after it ran
    assert np.all(z == 7.0) and _guards_intact(zw) and _guards_intact(xw, 1.0)


def test_warn_mode_reads_zeros_and_drops_writes_past_the_end() -> None:
    xw, x = _guarded()
    x[:] = np.arange(N, dtype=np.float32) + 1
    zw, z = _guarded()
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        _copy_tile[1](x, z, 40, 32, sanitize="warn")
    got = _sanitizer_warnings(record)
    kinds = sorted(w.error.kind for w in got)
    assert kinds == ["overrun", "overrun"]  # the read and the write, one report each
    assert {("reads bytes" in w.error.message, "writes bytes" in w.error.message) for w in got} == \
        {(True, False), (False, True)}
    np.testing.assert_array_equal(z[40:], x[40:])  # the part inside was copied
    assert np.all(z[:40] == 7.0)
    assert _guards_intact(zw) and _guards_intact(xw)  # past the end: nothing written, nothing read


@asc.jit
def _elements(x: asc.GlobalAddress, z: asc.GlobalAddress, i: int):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z)
    v = x_gm.get_value(i)  # past the end: reads 0 in warn mode
    z_gm.set_value(0, v + 1.0)
    z_gm.set_value(i, 5.0)  # past the end: goes nowhere


@pytest.mark.parametrize("i", [N, N + 10, 10**6])
def test_warn_mode_element_access(i: int) -> None:
    xw, x = _guarded()
    zw, z = _guarded()
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        _elements[1](x, z, i, sanitize="warn")
    assert z[0] == 1.0  # the read past the end saw 0
    assert np.all(z[1:] == 7.0) and _guards_intact(zw) and _guards_intact(xw)
    assert len([w for w in _sanitizer_warnings(record) if w.error.kind == "overrun"]) == 2


@asc.jit
def _before_start(x: asc.GlobalAddress, z: asc.GlobalAddress, back: int):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + (0 - back))  # starts `back` elements before the argument
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z)
    t = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 0, 16)
    asc.data_copy(t, x_gm, 16)
    asc.set_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.data_copy(z_gm, t, 16)


def test_before_the_start_is_an_overrun_too() -> None:
    xw, x = _guarded()
    x[:] = np.arange(N, dtype=np.float32) + 1
    zw, z = _guarded()
    with pytest.raises(asc.SanitizerError, match="8 bytes before its start"):
        _before_start[1](x, z, 2)
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        _before_start[1](x, z, 2, sanitize="warn")
    np.testing.assert_array_equal(z[:16], np.concatenate([[0, 0], x[:14]]))
    assert _guards_intact(zw) and _guards_intact(xw)


def test_sanitizer_off_keeps_the_kernel_error() -> None:
    zw, z = _guarded()
    _, x = _guarded()
    with pytest.raises(asc.KernelError, match="out of bounds") as info:
        _copy_tile[1](x, z, 40, 32, sanitize="off")
    assert not isinstance(info.value, asc.SanitizerError)
    assert np.all(z == 7.0) and _guards_intact(zw)


@asc.jit
def _rounded_up_blocks(x: asc.GlobalAddress, z: asc.GlobalAddress, per_block: int):
    # as upstream's launchers do: every block copies a whole 32-element tile from per_block * idx
    start = asc.get_block_idx() * per_block
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + start)
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z + start)
    t = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 0, 32)
    asc.data_copy(t, x_gm, 32)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.muls(t, t, 2.0, 32)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, t, 32)


def test_rounded_up_blocks_finish_in_warn_mode_with_the_right_result() -> None:
    xw, x = _guarded()
    x[:] = np.arange(N, dtype=np.float32)
    zw, z = _guarded()
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        _rounded_up_blocks[4](x, z, 24, sanitize="warn")  # blocks overlap and the last ones overrun
    np.testing.assert_array_equal(z, x * 2)
    assert _guards_intact(zw) and _guards_intact(xw)
    kinds = {w.error.kind for w in _sanitizer_warnings(record)}
    assert "overrun" in kinds and "core-race" in kinds
    with pytest.raises(asc.SanitizerError):
        _rounded_up_blocks[4](x, z, 24)
