"""TPipe.init_buffer with upstream pyasc's keyword names."""

from __future__ import annotations

import numpy as np

import asc


@asc.jit
def _keywords(x: asc.GlobalAddress, z: asc.GlobalAddress, n: asc.ConstExpr[int]):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    pipe = asc.TPipe()
    q_in = asc.TQue(asc.TPosition.VECIN, 1)
    q_out = asc.TQue(asc.TPosition.VECOUT, 1)
    tmp = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(que=q_in, num=1, len=n * x.dtype.sizeof())
    pipe.init_buffer(que=q_out, num=1, len=n * z.dtype.sizeof())
    pipe.init_buffer(buf=tmp, num=n * x.dtype.sizeof())  # for a TBuf, num is its length in bytes
    a = q_in.alloc_tensor(x.dtype)
    asc.data_copy(a, x_gm, count=n)
    q_in.enque(a)
    a = q_in.deque(x.dtype)
    t = tmp.get(x.dtype)
    asc.muls(t, a, 2.0, n)
    asc.pipe_barrier(asc.PipeID.PIPE_V)
    b = q_out.alloc_tensor(z.dtype)
    asc.adds(b, t, 1.0, n)
    q_out.enque(b)
    q_in.free_tensor(a)
    b = q_out.deque(z.dtype)
    asc.data_copy(z_gm, b, count=n)
    q_out.free_tensor(b)


def test_init_buffer_keywords() -> None:
    x = np.arange(64, dtype=np.float32)
    z = np.zeros_like(x)
    _keywords[1](x, z, 64)
    np.testing.assert_array_equal(z, x * 2 + 1)
