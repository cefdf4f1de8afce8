"""Every example is a test: run each as a module, then as a script."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SCRIPTS = sorted(EXAMPLES.glob("*/*.py"))


def load(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"example_{path.stem}", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_examples_found() -> None:
    assert {p.parent.name for p in SCRIPTS} >= {"01_add", "02_add_framework", "relu", "03_matmul",
                                                "03_matmul_cube_only", "04_softmax", "05_layer_norm",
                                                "06_auto_sync", "07_topk", "08_softmax_adv", "10_asc2"}


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.parent.name)
def test_example_script(path: Path) -> None:
    out = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "OK" in out.stdout


@pytest.mark.parametrize("name", ["01_add/add.py", "02_add_framework/add_framework.py"])
@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.int32, np.int16])
def test_add_examples_dtypes(name: str, dtype: type) -> None:
    z = load(EXAMPLES / name).run(dtype=dtype)  # asserts z == x + y itself
    assert z.dtype == dtype


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.int32])
def test_auto_sync_example(dtype: type) -> None:
    mod = load(EXAMPLES / "06_auto_sync/add_auto.py")
    z = mod.run(dtype=dtype)  # asserts z == x + y itself, under the sanitizer
    assert z.dtype == dtype
    log = next(iter(mod.add_auto_kernel.cache.values())).pass_log
    assert log.count("2 slots (double-buffered") == 3 and "by iteration parity" in log


@pytest.mark.parametrize("size", [8 * 256, 8 * 4096 + 3 * 256, 9 * 256])
def test_relu_sizes(size: int) -> None:
    z = load(EXAMPLES / "relu/relu.py").run(size=size)
    assert z.shape == (size,) and (z >= 0).all()


@pytest.mark.parametrize("rows", [4, 12])
@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_topk_example(rows: int, dtype: type) -> None:
    values, indices = load(EXAMPLES / "07_topk/topk.py").run(rows=rows, dtype=dtype)  # checks against NumPy
    assert values.shape == indices.shape == (rows, 16) and values.dtype == dtype
    assert (np.diff(values.astype(np.float64), axis=1) <= 0).all()  # descending


@pytest.mark.parametrize("name", ["03_matmul/matmul.py", "03_matmul_cube_only/matmul_cube_only.py"])
@pytest.mark.parametrize("m,n,k,cores,use_bias", [
    (300, 200, 130, 2, True),  # partial per-core and base blocks, partial K step
    (77, 300, 33, 5, False),   # odd sizes, more cores than M splits
    (16, 16, 16, 1, True),     # one fractal
    (129, 47, 257, 3, True),   # one past whole fractals in every dimension
])
def test_matmul_examples(name: str, m: int, n: int, k: int, cores: int, use_bias: bool) -> None:
    mod = load(EXAMPLES / name)
    c = mod.run(m=m, n=n, k=k, cores=cores, use_bias=use_bias)  # checks against NumPy float32 itself
    t = mod.make_tiling(m, n, k, cores, use_bias)
    assert c.shape == (m, n) and np.isfinite(c).all()
    assert m % t.single_core_m or n % t.single_core_n or m % t.base_m or n % t.base_n or k % t.base_k \
        or (m, n, k) == (16, 16, 16)  # the shape does not divide the blocks


@pytest.mark.parametrize("rows,scale", [(4 * 32, 4.0), (4 * 96, 30.0)])
def test_softmax_example(rows: int, scale: float) -> None:
    y = load(EXAMPLES / "04_softmax/softmax.py").run(rows=rows, scale=scale)  # checks against NumPy
    assert y.shape == (rows, 64)
    np.testing.assert_allclose(y.sum(axis=1), 1.0, rtol=1e-5)  # (scale 30: exp without the max would overflow)


@pytest.mark.parametrize("rows,scale", [(8 * 4, 2.0), (8 * 8, 12.0)])
def test_softmax_adv_example(rows: int, scale: float) -> None:
    # (family: adv softmax) asc.adv.softmax with the host's tiling; run() checks against torch.softmax
    y = load(EXAMPLES / "08_softmax_adv/softmax_adv.py").run(rows=rows, scale=scale)
    assert y.shape == (rows, 4096) and np.isfinite(y.astype(np.float32)).all()
    np.testing.assert_allclose(y.astype(np.float32).sum(axis=1), 1.0, rtol=2e-3)


@pytest.mark.parametrize("rows", [4 * 32, 4 * 64])
def test_layer_norm_example(rows: int) -> None:
    y = load(EXAMPLES / "05_layer_norm/layer_norm.py").run(rows=rows)  # checks against NumPy
    assert y.shape == (rows, 64) and np.isfinite(y).all()


# family: adv normquant: asc.adv.rmsnorm with the host tiling, against PyTorch (float16 / float32, H padded)
@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@pytest.mark.parametrize("hidden", [64, 200, 37])
def test_rmsnorm_example(dtype: type, hidden: int) -> None:
    assert (EXAMPLES / "09_rmsnorm").is_dir()
    y = load(EXAMPLES / "09_rmsnorm/rmsnorm.py").run(batch=1, seq=32, hidden=hidden, dtype=dtype)  # checks vs torch
    assert y.shape == (32, hidden) and y.dtype == dtype and np.isfinite(y.astype(np.float32)).all()


def test_readme_example(tmp_path: Path) -> None:
    """The kernel shown in README.md runs as written."""
    import re

    readme = (EXAMPLES.parent / "README.md").read_text()
    code = re.findall(r"```python\n(.*?)```", readme, re.S)[0]
    script = tmp_path / "readme_example.py"
    script.write_text(code)
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
