"""RMSNorm of the rows of a (B*S, H) float16 or float32 tensor with asc.adv.rmsnorm.

y = x / sqrt(mean(x ** 2) + eps) * gamma over each row of H values, the devkit's RmsNorm: the host pads H to
32 bytes (the devkit requires it; the padding is zeros and the tiling's original H keeps the mean right) and
asks asc.lib.host for the tiling of a tile of rows and the size of its temporary buffer
(get_rms_norm_max_min_tmp_size, get_rms_norm_tiling_info). Each block normalises its rows tile by tile through
double-buffered queues. The result is checked against PyTorch (torch.nn.functional.rms_norm, or the formula in
torch where the installed version lacks it), computed in float32.

    python examples/09_rmsnorm/rmsnorm.py [--dtype float16]
"""

import argparse

import numpy as np

import asc
import asc.lib.host as host
import asc.runtime.config as config

CORES = 4
TILE = 8  # rows a tile
EPS = 1e-6


@asc.jit
def rmsnorm_kernel(x: asc.GlobalAddress, gamma: asc.GlobalAddress, y: asc.GlobalAddress,
                   tiling: asc.adv.RmsNormTiling, rows_per_block: int, tile: asc.ConstExpr[int],
                   h: asc.ConstExpr[int], tmp_bytes: asc.ConstExpr[int], eps: asc.ConstExpr[float]):
    first = asc.get_block_idx() * rows_per_block * h
    x_gm = asc.GlobalTensor()
    g_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + first, rows_per_block * h)
    g_gm.set_global_buffer(gamma, h)
    y_gm.set_global_buffer(y + first, rows_per_block * h)

    pipe = asc.TPipe()
    x_in = asc.TQue(asc.TPosition.VECIN, 2)
    y_out = asc.TQue(asc.TPosition.VECOUT, 2)
    g_buf = asc.TBuf(asc.TPosition.VECCALC)
    tmp_buf = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(x_in, 2, tile * h * x.dtype.sizeof())
    pipe.init_buffer(y_out, 2, tile * h * x.dtype.sizeof())
    pipe.init_buffer(g_buf, h * x.dtype.sizeof())
    pipe.init_buffer(tmp_buf, tmp_bytes)
    g_ub = g_buf.get(x.dtype)
    tmp = tmp_buf.get(asc.uint8)
    asc.data_copy(g_ub, g_gm, h)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)

    for t in range(rows_per_block // tile):
        x_ub = x_in.alloc_tensor(x.dtype)
        asc.data_copy(x_ub, x_gm[t * tile * h:], tile * h)
        x_in.enque(x_ub)

        x_ub = x_in.deque(x.dtype)
        y_ub = y_out.alloc_tensor(x.dtype)
        asc.adv.rmsnorm(y_ub, x_ub, g_ub, eps, tiling, tmp)
        y_out.enque(y_ub)
        x_in.free_tensor(x_ub)

        y_ub = y_out.deque(x.dtype)
        asc.data_copy(y_gm[t * tile * h:], y_ub, tile * h)
        y_out.free_tensor(y_ub)


def reference(x: np.ndarray, gamma: np.ndarray, eps: float) -> np.ndarray:
    import torch

    xt = torch.from_numpy(x.astype(np.float32))
    gt = torch.from_numpy(gamma.astype(np.float32))
    if hasattr(torch.nn.functional, "rms_norm"):
        out = torch.nn.functional.rms_norm(xt, (x.shape[1],), weight=gt, eps=eps)
    else:
        out = xt * torch.rsqrt(xt.pow(2).mean(dim=-1, keepdim=True) + eps) * gt
    return out.numpy()


def run(batch: int = 2, seq: int = 32, hidden: int = 200, dtype: type = np.float32) -> np.ndarray:
    rows = batch * seq
    assert rows % (CORES * TILE) == 0, "batch * seq: a multiple of CORES * TILE"
    size = np.dtype(dtype).itemsize
    unit = 32 // size
    h = -(-hidden // unit) * unit  # H padded to 32 bytes
    rng = np.random.default_rng(9)
    x = (rng.standard_normal((rows, hidden)) * 2).astype(dtype)
    gamma = rng.uniform(0.5, 1.5, hidden).astype(dtype)
    xp = np.zeros((rows, h), dtype)
    xp[:, :hidden] = x
    gp = np.zeros(h, dtype)
    gp[:hidden] = gamma

    # the tiling of one tile of rows, with the buffer for all of them in one round
    tmp_bytes, _ = host.get_rms_norm_max_min_tmp_size((1, TILE, h), size)
    tiling = host.get_rms_norm_tiling_info((1, TILE, h), (1, TILE, hidden), tmp_bytes, size)
    yp = np.zeros_like(xp)
    rmsnorm_kernel[CORES](xp, gp, yp, tiling, rows // CORES, TILE, h, tmp_bytes, EPS)
    y = yp[:, :hidden]
    tol = 2e-3 if dtype == np.float16 else 1e-5
    np.testing.assert_allclose(y.astype(np.float32), reference(x, gamma, EPS), rtol=tol, atol=tol)
    return y


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-r", default="Model", choices=[b.value for b in config.Backend], help="backend")
    parser.add_argument("-v", default=None, choices=[p.value for p in config.Platform], help="platform")
    parser.add_argument("--dtype", default="float32", choices=["float16", "float32"])
    args = parser.parse_args()
    config.set_platform(config.Backend(args.r), config.Platform(args.v) if args.v else None)
    run(dtype=np.float16 if args.dtype == "float16" else np.float32)
    print("rmsnorm: OK ((B*S, H) rows on", CORES, "blocks, within tolerance of torch.nn.functional.rms_norm)")
