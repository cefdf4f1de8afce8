"""The number of host worker threads is configurable and never changes results."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

import asc
import asc.runtime.config as config


@asc.jit
def _blocks(z: asc.GlobalAddress, per_block: asc.ConstExpr[int]):
    g = asc.GlobalTensor()
    g.set_global_buffer(z + asc.get_block_idx() * per_block)
    acc = asc.int32(0)
    blk = asc.int32(asc.get_block_idx())
    for i in range(per_block):
        acc = acc * 31 + blk + i
        g.set_value(i, acc)


@pytest.mark.parametrize("workers", [1, 2, 3, 8])
def test_results_do_not_depend_on_workers(workers: int) -> None:
    ref = np.zeros(16 * 16, np.int32)
    config.set_workers(1)
    try:  # 16 int32 per block: a 64-byte data cache line each (docs/sanitizer.md)
        _blocks[16](ref, 16)
        out = np.zeros_like(ref)
        config.set_workers(workers)
        _blocks[16](out, 16)
    finally:
        config.set_workers(0)
    np.testing.assert_array_equal(out, ref)
    assert config.get_workers() == 0


def test_set_workers_validates() -> None:
    for bad in (-1, 1.5, True, "2"):
        with pytest.raises(ValueError):
            config.set_workers(bad)  # type: ignore[arg-type]


def test_environment_variable() -> None:
    code = "import asc.runtime.config as c; print(c.get_workers())"
    env = {**os.environ, "PYASC_WORKERS": "3"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert out.stdout.strip() == "3", out.stderr
    env["PYASC_WORKERS"] = "many"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert out.returncode != 0 and "PYASC_WORKERS" in out.stderr


def test_core_num_limit() -> None:
    z = np.zeros(8, np.int32)
    with pytest.raises(ValueError, match="65535"):
        _blocks[65536](z, 8)
    with pytest.raises(ValueError, match="positive"):
        _blocks[0](z, 8)


@asc.jit
def _registers_at_block_start(x: asc.GlobalAddress, z: asc.GlobalAddress):
    # every block reads the merge result and CmpMask registers first, then sets both
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z + asc.get_block_idx() * 8)
    xl = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, 64)
    zl = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, 256, 64)
    ml = asc.LocalTensor(asc.uint32, asc.TPosition.VECOUT, 512, 32)
    rl = asc.LocalTensor(asc.uint32, asc.TPosition.VECOUT, 640, 8)
    asc.get_cmp_mask(ml)
    a, b, c, d = asc.get_mrg_sort_result()
    asc.set_flag(asc.HardEvent.V_S, 0)
    asc.wait_flag(asc.HardEvent.V_S, 0)
    rl.set_value(0, a + b + c + d)
    rl.set_value(1, ml.get_value(0) | ml.get_value(1) | ml.get_value(2) | ml.get_value(3))
    for k in range(2, 8):
        rl.set_value(k, 0)
    asc.data_copy(xl, x_gm, 64)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    src = asc.MrgSortSrcList(asc.float32, xl, xl[32])
    asc.mrg_sort(zl, src, [16, 16, 0, 0], [0, 0, 0, 0], 3, 1, False)
    asc.set_cmp_mask(xl)
    asc.set_flag(asc.HardEvent.S_MTE3, 0)
    asc.wait_flag(asc.HardEvent.S_MTE3, 0)
    asc.data_copy(z_gm, rl, 8)


@pytest.mark.parametrize("workers", [1, 4])
def test_every_block_starts_with_the_registers_of_a_fresh_core(workers: int) -> None:
    """A block that runs after another on the same worker does not see its registers."""
    x = np.zeros(64, np.float32)  # two sorted lists of 16 (score, index 0) pairs
    x[0:32:2] = np.arange(16, 0, -1)
    x[32:64:2] = np.arange(16, 0, -1) - 0.5
    z = np.full(4 * 8, 7, np.uint32)
    config.set_workers(workers)
    try:
        _registers_at_block_start[4](x, z)
    finally:
        config.set_workers(0)
    np.testing.assert_array_equal(z, 0)
