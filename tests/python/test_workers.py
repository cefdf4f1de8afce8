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
    ref = np.zeros(16 * 8, np.int32)
    config.set_workers(1)
    try:
        _blocks[16](ref, 8)
        out = np.zeros_like(ref)
        config.set_workers(workers)
        _blocks[16](out, 8)
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
