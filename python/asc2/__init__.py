"""`asc2`: the tile-level front end (PyAsc2's API) over the asc IR.

    import asc2

    @asc2.jit
    def vadd(x_ptr: asc.GlobalAddress, y_ptr: asc.GlobalAddress, z_ptr: asc.GlobalAddress, size: int,
             tile: asc.ConstExpr[int]):
        x, y, z = asc2.tensor(x_ptr, [size]), asc2.tensor(y_ptr, [size]), asc2.tensor(z_ptr, [size])
        off = asc2.block_idx() * tile
        asc2.store(asc2.load(x, [tile], offsets=[off]) + asc2.load(y, [tile], offsets=[off]), z, offsets=[off])

    vadd[core_num](x, y, z, x.size, 128)

Tile ops are IR ops of their own (src/ir/ops.def, "family: tiles"); the C pass lower-tiles turns them into UB
tensors planned by plan-ub, copies and vector instructions, and (lower-cube, asc2/cube.py) the cube tiles into
L1 / L0A / L0B / L0C tensors planned by plan-ub one pool per memory and the cube instructions, with the pipes
synchronised by insert-sync. What works and what raises NotImplementedError: docs/api.md, "asc2".
"""

from .compare import (
    equal,
    greater,
    greater_equal,
    less,
    less_equal,
    not_equal,
    where,
)
from .creation import (
    concat,
    full,
    full_like,
    zeros,
    zeros_like,
)
from .cube import copy, matmul, matmul_acc, zeros_acc
from .elementwise import (
    abs,
    add,
    ceil,
    cos,
    cosh,
    div,
    erf,
    exp,
    exp2,
    floor,
    left_shift,
    log,
    log2,
    maximum,
    minimum,
    mul,
    negative,
    relu,
    right_shift,
    rms_norm,
    rsqrt,
    sin,
    sinh,
    softmax,
    sqrt,
    sub,
    tan,
    tanh,
)
from .jit import jit
from .mask import (
    mask,
)
from .memory import (
    atomic_add,
    atomic_max,
    atomic_min,
    block_idx,
    block_num,
    load,
    num_tiles,
    store,
)
from .reduce import (
    reduce_max,
    reduce_min,
    reduce_prod,
    reduce_sum,
)
from .shape import (
    broadcast_to,
    expand_dims,
    ravel,
    reshape,
    squeeze,
)
from .tile import (
    Tensor,
    Tile,
    TileLocation,
    range,
    tensor,
)

__all__ = [
    "jit", "tensor", "Tensor", "Tile", "TileLocation", "range", "load", "store", "block_idx", "block_num",
    "add", "sub", "mul", "div", "maximum", "minimum", "left_shift", "right_shift",
    "abs", "exp", "log", "sqrt", "rsqrt", "relu", "negative", "sin", "cos", "tan", "sinh", "cosh", "tanh", "erf",
    "floor", "ceil", "exp2", "full", "full_like", "zeros", "zeros_like",
    "reduce_sum", "reduce_max", "reduce_min", "reduce_prod",
    "equal", "not_equal", "greater", "greater_equal", "less", "less_equal", "where", "softmax",
    "broadcast_to", "reshape", "ravel", "expand_dims", "squeeze", "atomic_add", "atomic_max", "atomic_min",
    "matmul", "matmul_acc", "zeros_acc", "copy", "num_tiles", "log2", "mask", "concat", "rms_norm",
]
