"""Simulator throughput against NumPy on the same data, measured in one run.

Prints, for each case, the median simulator time, the median time of the
equivalent NumPy call, and their ratio (goals from the simulator-speed issue):

- examples/02_add_framework, 2^24 float32, 8 blocks:   sim / np.add(x, y, out=z)   <= 1.5
- a ReLU kernel, 2^24 float32, 8 blocks:                 sim / np.maximum(x, 0, out=z) <= 1.5
- an fp16 kernel (cast in, add in float32, cast out):    sim / np.add on float16     <= 1.5
- 1-block add of 1024 elements:                          sim / np.add (1024)         <= 20
- float32 rsqrt, reciprocal and cast (float -> float, CAST_FLOOR), 2^24 elements, 8 blocks: sim / the NumPy
  equivalent, for information (no goal); rsqrt and reciprocal also with precision="hardware"
- scaling: the 02_add_framework launch with 1 worker / with 2 workers   >= 1.7 (on 2 cores)
- memory: peak RSS growth of a launch over the arrays' size (no hidden copies)

    python benchmarks/sim_throughput.py [--quick]

The sanitizer, when present, is switched off here (its own benchmark
measures its cost).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import resource
import statistics
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Callable, List

import numpy as np

import asc
import asc.runtime.config as config

ROOT = Path(__file__).resolve().parents[1]
UB_TILE = 8192  # float32 elements per queue buffer: 6 buffers of 32 KiB fit the 192 KiB UB


def load(rel: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(Path(rel).stem, ROOT / rel)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    sys.modules[Path(rel).stem] = mod
    spec.loader.exec_module(mod)
    return mod


def median_s(fn: Callable[[], object], repeat: int) -> float:
    fn()  # warm up (and compile)
    samples: List[float] = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - t0)
    return statistics.median(samples)


@asc.jit(sanitize="off") if "sanitize" in asc.runtime.jit.OPTIONS else asc.jit
def relu_kernel(x: asc.GlobalAddress, z: asc.GlobalAddress, block_length: int, tile: asc.ConstExpr[int]):
    start = asc.get_block_idx() * block_length
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + start, block_length)
    z_gm.set_global_buffer(z + start, block_length)
    pipe = asc.TPipe()
    q_in = asc.TQue(asc.TPosition.VECIN, 2)
    q_out = asc.TQue(asc.TPosition.VECOUT, 2)
    pipe.init_buffer(q_in, 2, tile * 4)
    pipe.init_buffer(q_out, 2, tile * 4)
    for t in range(block_length // tile):
        a = q_in.alloc_tensor(x.dtype)
        asc.data_copy(a, x_gm[t * tile:], tile)
        q_in.enque(a)
        a = q_in.deque(x.dtype)
        b = q_out.alloc_tensor(z.dtype)
        asc.relu(b, a, tile)
        q_out.enque(b)
        q_in.free_tensor(a)
        b = q_out.deque(z.dtype)
        asc.data_copy(z_gm[t * tile:], b, tile)
        q_out.free_tensor(b)


@asc.jit(sanitize="off") if "sanitize" in asc.runtime.jit.OPTIONS else asc.jit
def half_add_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, block_length: int,
                    tile: asc.ConstExpr[int]):
    start = asc.get_block_idx() * block_length
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + start, block_length)
    y_gm.set_global_buffer(y + start, block_length)
    z_gm.set_global_buffer(z + start, block_length)
    pipe = asc.TPipe()
    q_x = asc.TQue(asc.TPosition.VECIN, 1)
    q_y = asc.TQue(asc.TPosition.VECIN, 1)
    q_z = asc.TQue(asc.TPosition.VECOUT, 1)
    work = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(q_x, 1, tile * 2)
    pipe.init_buffer(q_y, 1, tile * 2)
    pipe.init_buffer(q_z, 1, tile * 2)
    pipe.init_buffer(work, tile * 8)
    fx = work.get(asc.float32, tile)
    fy = work.get(asc.float32)[tile:]
    for t in range(block_length // tile):
        a = q_x.alloc_tensor(asc.float16)
        b = q_y.alloc_tensor(asc.float16)
        asc.data_copy(a, x_gm[t * tile:], tile)
        asc.data_copy(b, y_gm[t * tile:], tile)
        q_x.enque(a)
        q_y.enque(b)
        a = q_x.deque(asc.float16)
        b = q_y.deque(asc.float16)
        asc.cast(fx, a, asc.RoundMode.CAST_NONE, tile)
        asc.cast(fy, b, asc.RoundMode.CAST_NONE, tile)
        asc.pipe_barrier(asc.PipeID.PIPE_V)
        asc.add(fx, fx, fy, tile)
        asc.pipe_barrier(asc.PipeID.PIPE_V)
        c = q_z.alloc_tensor(asc.float16)
        asc.cast(c, fx, asc.RoundMode.CAST_RINT, tile)
        q_z.enque(c)
        q_x.free_tensor(a)
        q_y.free_tensor(b)
        c = q_z.deque(asc.float16)
        asc.data_copy(z_gm[t * tile:], c, tile)
        q_z.free_tensor(c)


UNARY_RSQRT, UNARY_RECIPROCAL, UNARY_FLOOR = 0, 1, 2


@asc.jit(sanitize="off") if "sanitize" in asc.runtime.jit.OPTIONS else asc.jit
def unary_kernel(x: asc.GlobalAddress, z: asc.GlobalAddress, block_length: int, tile: asc.ConstExpr[int],
                 op: asc.ConstExpr[int]):
    start = asc.get_block_idx() * block_length
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + start, block_length)
    z_gm.set_global_buffer(z + start, block_length)
    pipe = asc.TPipe()
    q_in = asc.TQue(asc.TPosition.VECIN, 2)
    q_out = asc.TQue(asc.TPosition.VECOUT, 2)
    pipe.init_buffer(q_in, 2, tile * 4)
    pipe.init_buffer(q_out, 2, tile * 4)
    for t in range(block_length // tile):
        a = q_in.alloc_tensor(x.dtype)
        asc.data_copy(a, x_gm[t * tile:], tile)
        q_in.enque(a)
        a = q_in.deque(x.dtype)
        b = q_out.alloc_tensor(z.dtype)
        if op == UNARY_RSQRT:
            asc.rsqrt(b, a, tile)
        elif op == UNARY_RECIPROCAL:
            asc.reciprocal(b, a, tile)
        else:
            asc.cast(b, a, asc.RoundMode.CAST_FLOOR, tile)
        q_out.enque(b)
        q_in.free_tensor(a)
        b = q_out.deque(z.dtype)
        asc.data_copy(z_gm[t * tile:], b, tile)
        q_out.free_tensor(b)


def unary_cases(x: np.ndarray, z: np.ndarray, block: int, cores: int, repeat: int) -> None:
    """rsqrt, reciprocal and a float -> float cast against NumPy (information: no goal)."""
    xp = x + np.float32(0.5)  # positive, away from 0
    cases = [("rsqrt", UNARY_RSQRT, lambda: np.divide(1, np.sqrt(xp), out=z)),
             ("reciprocal", UNARY_RECIPROCAL, lambda: np.divide(1, xp, out=z)),
             ("cast f32->f32 floor", UNARY_FLOOR, lambda: np.floor(xp, out=z))]
    precisions = ["exact", "hardware"] if "precision" in config.set_platform.__code__.co_varnames else [None]
    for name, op, ref in cases:
        for prec in precisions if op != UNARY_FLOOR else precisions[:1]:
            if prec is not None:
                config.set_platform(config.Backend.Model, precision=prec)
            t_sim = median_s(lambda op=op: unary_kernel[cores](xp, z, block, UB_TILE, op), repeat)
            t_np = median_s(ref, repeat)
            label = f"{name}{'' if prec in (None, 'exact') else ' (hardware)'}"
            print(f"{label:31s} 2^{x.size.bit_length() - 1} f32, 8 blocks: sim {t_sim * 1e3:8.2f} ms  numpy "
                  f"{t_np * 1e3:6.2f} ms  ratio {t_sim / t_np:5.2f}  (information)")
    if precisions[0] is not None:
        config.set_platform(config.Backend.Model)


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="2^20 elements, fewer repeats")
    args = parser.parse_args()
    n = 1 << (20 if args.quick else 24)
    repeat = 3 if args.quick else 7
    cores = 8
    block = n // cores
    os.environ.setdefault("PYASC_SANITIZE", "off")

    af = load("examples/02_add_framework/add_framework.py")
    af.TILES = block // UB_TILE // af.BUFFERS  # a tile that fits the UB
    rng = np.random.default_rng(0)
    x = rng.random(n, dtype=np.float32)
    y = rng.random(n, dtype=np.float32)
    z = np.zeros_like(x)  # touched: all three arrays are resident now

    def sim_add() -> None:
        af.add_kernel[cores](x, y, z, block, UB_TILE)

    rss0 = peak_rss_mb()
    sim_add()  # compile and run once; nothing else allocates in between
    rss_growth = peak_rss_mb() - rss0
    t_sim = median_s(sim_add, repeat)
    np.testing.assert_array_equal(z, x + y)
    t_np = median_s(lambda: np.add(x, y, out=z), repeat)
    print(f"add_framework 2^{n.bit_length() - 1} f32, 8 blocks: sim {t_sim * 1e3:8.2f} ms  numpy.add "
          f"{t_np * 1e3:7.2f} ms  ratio {t_sim / t_np:5.2f}  (goal <= 1.5)")

    config.set_workers(1)
    t_one = median_s(sim_add, repeat)
    config.set_workers(2)
    t_two = median_s(sim_add, repeat)
    config.set_workers(0)
    print(f"scaling, 1 worker {t_one * 1e3:8.2f} ms  2 workers {t_two * 1e3:8.2f} ms  speed-up {t_one / t_two:5.2f}"
          f"  (goal >= 1.7 on 2 host cores; this host has {os.cpu_count()})")

    t_sim = median_s(lambda: relu_kernel[cores](x, z, block, UB_TILE), repeat)
    np.testing.assert_array_equal(z, np.maximum(x, 0))
    t_np = median_s(lambda: np.maximum(x, 0, out=z), repeat)
    print(f"relu 2^{n.bit_length() - 1} f32, 8 blocks:          sim {t_sim * 1e3:8.2f} ms  np.maximum "
          f"{t_np * 1e3:6.2f} ms  ratio {t_sim / t_np:5.2f}  (goal <= 1.5)")

    xh, yh = x.astype(np.float16), y.astype(np.float16)
    zh = np.empty_like(xh)
    tile_h = 8192
    t_sim = median_s(lambda: half_add_kernel[cores](xh, yh, zh, block, tile_h), repeat)
    np.testing.assert_array_equal(zh, xh + yh)
    t_np = median_s(lambda: np.add(xh, yh, out=zh), repeat)
    print(f"fp16 add (cast in, add, cast out), 8 blocks: sim {t_sim * 1e3:8.2f} ms  numpy fp16 add "
          f"{t_np * 1e3:6.2f} ms  ratio {t_sim / t_np:5.2f}  (goal <= 1.5)")

    unary_cases(x, z, block, cores, repeat)

    af.TILES = 8  # 1024 elements: 16 tiles of 64
    xs, ys = x[:1024].copy(), y[:1024].copy()
    zs = np.empty_like(xs)
    t_sim = median_s(lambda: af.add_kernel[1](xs, ys, zs, 1024, 64), 200)
    np.testing.assert_array_equal(zs, xs + ys)
    t_np = median_s(lambda: np.add(xs, ys, out=zs), 200)
    print(f"1 block, 1024 elements:               sim {t_sim * 1e6:8.2f} us  numpy.add {t_np * 1e6:6.2f} us"
          f"  ratio {t_sim / t_np:5.1f}  (goal <= 20)")

    arrays_mb = 3 * x.nbytes / 2**20
    print(f"memory: the first 02_add_framework launch (compile included) over {arrays_mb:.0f} MiB of arrays "
          f"raised peak RSS by {rss_growth:.1f} MiB (GM is used in place; per worker: one UB + registers)")


if __name__ == "__main__":
    main()
