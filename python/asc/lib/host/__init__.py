"""Host-side tiling (upstream pyasc's asc.lib.host): the platform's cores and
memories, and the matmul tiling that fills an asc.adv.TCubeTiling. The
algorithm is C (src/host/, include/asc/host.h); docs/host_tiling.md says
what it chooses."""

from .enums import (
    CoreMemType,
    CubeFormat,
    DataType,
    DequantType,
    MatrixMadType,
    MatrixTraverse,
    ScheduleType,
    TPosition,
)
from .normalization import (  # family: adv normquant
    get_ascend_quant_max_min_tmp_size,
    get_rms_norm_max_min_tmp_size,
    get_rms_norm_tiling_info,
)
from .softmax_tiling import (  # family: adv softmax
    get_softmax_max_tmp_size,
    get_softmax_min_tmp_size,
    softmax_tiling_func,
)
from .tiling import (
    BatchMatmulTiling,
    MatmulApiTiling,
    MatmulApiTilingBase,
    MatmulConfigParams,
    MultiCoreMatmulTiling,
    PlatformAscendC,
    PlatformAscendCManager,
)


def get_ascendc_platform() -> PlatformAscendC:
    """The PlatformAscendC of the platform kernels run on (asc.lib.runtime's SoC version)."""
    from ..runtime import state

    return PlatformAscendCManager.get_instance(state.soc_version)


__all__ = [
    "BatchMatmulTiling",
    "CoreMemType",
    "CubeFormat",
    "DataType",
    "DequantType",
    "MatmulApiTiling",
    "MatmulApiTilingBase",
    "MatmulConfigParams",
    "MatrixMadType",
    "MatrixTraverse",
    "MultiCoreMatmulTiling",
    "PlatformAscendC",
    "PlatformAscendCManager",
    "ScheduleType",
    "TPosition",
    "get_ascendc_platform",
    # family: adv softmax
    "get_softmax_max_tmp_size",
    "get_softmax_min_tmp_size",
    "softmax_tiling_func",
    # family: adv normquant
    "get_ascend_quant_max_min_tmp_size",
    "get_rms_norm_max_min_tmp_size",
    "get_rms_norm_tiling_info",
]
