"""The advanced API (`asc.adv`), as upstream pyasc's asc.language.adv."""

from .math import (  # family: adv math
    acos,
    acosh,
    asin,
    asinh,
    atan,
    atanh,
    axpy,
    ceil,
    cos,
    cosh,
    digamma,
    erf,
    erfc,
    exp,
    floor,
    frac,
    lgamma,
    log,
    power,
    round,
    sign,
    sin,
    sinh,
    tan,
    tanh,
    trunc,
    xor,
)
from .matmul import (
    Matmul,
    MatmulType,
    MatrixOffset,
    get_basic_config,
    get_ib_share_norm_config,
    get_matmul_api_tiling,
    get_mdl_config,
    get_mm_config,
    get_normal_config,
    get_special_basic_config,
    get_special_mdl_config,
    register_matmul,
)
from .normalization import rmsnorm  # family: adv normquant
from .quantization import QuantConfig, quant  # family: adv normquant
from .softmax import SoftmaxTiling, softmax  # family: adv softmax
from .sort import concat, extract  # family: adv sort
from .static_tiling import MatmulApiStaticTiling  # family: adv tiling (misc)
from .tiling import RmsNormTiling, TCubeTiling
from .types import MatmulBatchParams, MatmulConfig, MatmulFuncParams, MatmulQuantParams, MatmulShapeParams

__all__ = [
    # .math (family: adv math)
    "acos",
    "acosh",
    "asin",
    "asinh",
    "atan",
    "atanh",
    "axpy",
    "ceil",
    "cos",
    "cosh",
    "digamma",
    "erf",
    "erfc",
    "exp",
    "floor",
    "frac",
    "lgamma",
    "log",
    "power",
    "round",
    "sign",
    "sin",
    "sinh",
    "tan",
    "tanh",
    "trunc",
    "xor",
    # .matmul (family: matmul)
    "Matmul",
    "MatmulType",
    "MatrixOffset",
    "get_basic_config",
    "get_ib_share_norm_config",
    "get_matmul_api_tiling",
    "get_mdl_config",
    "get_mm_config",
    "get_normal_config",
    "get_special_basic_config",
    "get_special_mdl_config",
    "register_matmul",
    # .softmax (family: adv softmax)
    "SoftmaxTiling",
    "softmax",
    # .tiling (family: host)
    "TCubeTiling",
    # .static_tiling (family: adv tiling, misc)
    "MatmulApiStaticTiling",
    # .sort (family: adv sort)
    "concat",
    "extract",
    # family: adv normquant (.normalization, .quantization, .tiling)
    "QuantConfig",
    "RmsNormTiling",
    "quant",
    "rmsnorm",
    # .types (family: matmul)
    "MatmulBatchParams",
    "MatmulConfig",
    "MatmulFuncParams",
    "MatmulQuantParams",
    "MatmulShapeParams",
]
