"""asc.lib.host's platform and matmul tiling objects, thin over the C of
src/host/ (include/asc/host.h): the setters record what they are told (with
the devkit's checks where its setters make them), get_tiling hands the
record to asc._C.host_matmul_tiling and copies the result into an
asc.adv.TCubeTiling. Names and signatures are upstream pyasc's bindings of
the devkit's classes (platform_ascendc::PlatformAscendC, matmul_tiling::
MatmulApiTiling, MultiCoreMatmulTiling, BatchMatmulTiling)."""

from __future__ import annotations

import enum
import logging
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Tuple, Type

from ... import _C
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

if TYPE_CHECKING:
    from ...language.adv.tiling import TCubeTiling

_log = logging.getLogger("asc.lib.host")


def _tcube_tiling() -> Any:
    # (imported when used: asc.language imports asc.lib while it is being imported)
    from ...language.adv.tiling import TCubeTiling

    return TCubeTiling


def _tcube_names() -> List[str]:
    return list(_tcube_tiling().struct_fields)

_INT32_MIN, _INT32_MAX = -(2 ** 31), 2 ** 31 - 1
_C0_SIZE = 16  # M and N of a fractal
_ALIGN = 32  # SetBufferSpace rounds sizes down to this


def _int(api: str, name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{api}: `{name}` must be an integer, got {type(value).__name__} {value!r}")
    if not _INT32_MIN <= value <= _INT32_MAX:
        raise ValueError(f"{api}: `{name}` = {value} does not fit int32")
    return int(value)


def _flag(api: str, name: str, value: Any) -> bool:
    if isinstance(value, bool) or (isinstance(value, int) and value in (0, 1)):
        return bool(value)
    raise TypeError(f"{api}: `{name}` must be a bool, got {type(value).__name__} {value!r}")


def _member(api: str, name: str, value: Any, cls: Type[enum.IntEnum]) -> int:
    if not isinstance(value, cls):
        raise TypeError(f"{api}: `{name}` must be a member of asc.lib.host.{cls.__name__}, got "
                        f"{type(value).__name__} {value!r}")
    return int(value)


class PlatformAscendC:
    """The platform a tiling is computed for (the devkit's
    platform_ascendc::PlatformAscendC): its core counts and memory sizes,
    from the simulator's platform table."""

    def __init__(self, soc_version: Optional[str] = None) -> None:
        if soc_version is None:
            from ..runtime import state

            soc_version = state.soc_version
        soc_version = getattr(soc_version, "value", soc_version)
        if not isinstance(soc_version, str):
            raise TypeError(f"PlatformAscendC: the SoC version must be a platform name, got {soc_version!r}")
        try:
            self._info = _C.platform(soc_version)
        except ValueError:
            raise ValueError(f"PlatformAscendC: unknown SoC version {soc_version!r}") from None
        from ...runtime.config import check_simulated

        check_simulated(soc_version, "asc.lib.host.PlatformAscendC")  # the tiling models arch 2201 (C220)
        self.soc_version: str = soc_version

    @property
    def core_num(self) -> int:
        return self.get_core_num()

    def get_core_num(self) -> int:
        """The AI Vector cores: what a vector or mix kernel is launched over on 910B."""
        return int(self._info["vector_cores"])

    def get_core_num_aic(self) -> int:
        return int(self._info["cube_cores"])

    def get_core_num_aiv(self) -> int:
        return int(self._info["vector_cores"])

    def get_core_num_vector(self) -> int:
        return 0  # (separate vector cores exist on other parts only)

    def get_core_mem_size(self, mem_type: CoreMemType) -> int:
        """Bytes of one core's memory of that type (UB and L1 less the 256
        bytes the devkit keeps back on 910B)."""
        t = _member("PlatformAscendC.get_core_mem_size", "mem_type", mem_type, CoreMemType)
        return int(_C.host_core_mem_size(self.soc_version, t))

    def get_soc_version(self) -> str:
        return self.soc_version

    def calc_tsch_block_dim(self, slice_num: int, aic_core_num: int, aiv_core_num: int) -> int:
        """The launch's block count for slice_num slices (the devkit's CalcTschBlockDim)."""
        api = "PlatformAscendC.calc_tsch_block_dim"
        s = _int(api, "slice_num", slice_num)
        aic = _int(api, "aic_core_num", aic_core_num)
        aiv = _int(api, "aiv_core_num", aiv_core_num)
        if aic == 0 or aiv == 0 or aic > aiv:
            return s
        ratio = aiv // aic  # a mix kernel's block is one cube core with its vector cores
        return (s + ratio - 1) // ratio

    def __repr__(self) -> str:
        return f"PlatformAscendC({self.soc_version!r})"


class PlatformAscendCManager:
    """Hands out one PlatformAscendC per SoC version (the devkit's singleton manager)."""

    _instances: Dict[str, PlatformAscendC] = {}

    @staticmethod
    def get_instance(soc_version: Optional[str] = None) -> PlatformAscendC:
        if soc_version is None:
            from ..runtime import state

            soc_version = state.soc_version
        key = getattr(soc_version, "value", soc_version)
        inst = PlatformAscendCManager._instances.get(key)
        if inst is None:
            inst = PlatformAscendC(key)
            PlatformAscendCManager._instances[key] = inst
        return inst


class MatmulConfigParams:
    """The devkit's MatmulConfigParams (set_matmul_config_params)."""

    def __init__(self, mm_config_type: int = 1, enable_l1_cache_ub: bool = False,
                 schedule_type: ScheduleType = ScheduleType.INNER_PRODUCT,
                 traverse: MatrixTraverse = MatrixTraverse.NOSET, en_vec_nd2nz: bool = False) -> None:
        api = "MatmulConfigParams"
        self.mm_config_type = _int(api, "mm_config_type", mm_config_type)
        self.enable_l1_cache_ub = _flag(api, "enable_l1_cache_ub", enable_l1_cache_ub)
        _member(api, "schedule_type", schedule_type, ScheduleType)
        self.schedule_type = schedule_type
        _member(api, "traverse", traverse, MatrixTraverse)
        self.traverse = traverse
        self.en_vec_nd2nz = _flag(api, "en_vec_nd2nz", en_vec_nd2nz)


_KIND = {"MatmulApiTiling": 0, "MultiCoreMatmulTiling": 1, "BatchMatmulTiling": 2}


class MatmulApiTilingBase:
    """What the three tiling classes share (the devkit's MatmulApiTilingBase)."""

    def __init__(self, platform: Optional[PlatformAscendC] = None) -> None:
        name = type(self).__name__
        if name not in _KIND:
            raise TypeError("MatmulApiTilingBase is a base class: use MatmulApiTiling, MultiCoreMatmulTiling "
                            "or BatchMatmulTiling")
        if platform is None:
            platform = PlatformAscendCManager.get_instance()
        if not isinstance(platform, PlatformAscendC):
            raise TypeError(f"{name}: the platform must be an asc.lib.host.PlatformAscendC (get_ascendc_platform()), "
                            f"got {type(platform).__name__}")
        self._platform = platform
        self._s: Dict[str, int] = dict(_C.host_matmul_tiling_defaults(_KIND[name], platform.soc_version))
        self._limits = {k: self._s[k] for k in ("l1_size", "l0c_size", "ub_size", "bt_size")}
        self._result: Optional[Tuple[int, ...]] = None
        self._split: Optional[Tuple[int, int, int, int, int]] = None
        self._config = MatmulConfigParams()
        self._dequant = DequantType.SCALAR
        self._sparse = False
        self.error = ""  # why the last get_tiling returned -1 (ours; the devkit logs it)

    def _api(self, method: str) -> str:
        return f"{type(self).__name__}.{method}"

    # ---- the matrices -------------------------------------------------------------
    def _set_type(self, which: str, method: str, pos: Any, type: Any, data_type: Any,
                  is_trans: Optional[Any]) -> int:
        api = self._api(method)
        self._s[f"{which}_pos"] = _member(api, "pos", pos, TPosition)
        self._s[f"{which}_format"] = _member(api, "type", type, CubeFormat)
        self._s[f"{which}_dtype"] = _member(api, "data_type", data_type, DataType)
        if is_trans is not None:
            self._s[f"{which}_trans"] = int(_flag(api, "is_trans", is_trans))
        return 0

    def set_a_type(self, pos: TPosition, type: CubeFormat, data_type: DataType, is_trans: bool = False) -> int:
        """Where A is, its format, data type and whether it is transposed (as the kernel's MatmulType)."""
        return self._set_type("a", "set_a_type", pos, type, data_type, is_trans)

    def set_b_type(self, pos: TPosition, type: CubeFormat, data_type: DataType, is_trans: bool = False) -> int:
        """Where B is, its format, data type and whether it is transposed."""
        return self._set_type("b", "set_b_type", pos, type, data_type, is_trans)

    def set_c_type(self, pos: TPosition, type: CubeFormat, data_type: DataType) -> int:
        """Where C goes, its format and data type."""
        return self._set_type("c", "set_c_type", pos, type, data_type, None)

    def set_bias_type(self, pos: TPosition, type: CubeFormat, data_type: DataType) -> int:
        """Where the bias is, its format and data type."""
        return self._set_type("bias", "set_bias_type", pos, type, data_type, None)

    def enable_bias(self, is_bias_in: bool = False) -> int:
        """Whether a bias is added (must match the kernel)."""
        self._s["is_bias"] = int(_flag(self._api("enable_bias"), "is_bias_in", is_bias_in))
        return 0

    def set_bias(self, is_bias_in: bool = False) -> int:
        """The devkit's SetBias: enable_bias."""
        return self.enable_bias(is_bias_in)

    # ---- shapes ---------------------------------------------------------------------
    def set_org_shape(self, org_m_in: int, org_n_in: int, org_ka_in: Optional[int] = None,
                      org_kb_in: Optional[int] = None, *, org_k_in: Optional[int] = None) -> int:
        """The whole matrices' M, N and K (Ka of A and Kb of B when they differ):
        set_org_shape(m, n, k) or set_org_shape(m, n, ka, kb)."""
        api = self._api("set_org_shape")
        ka = org_k_in if org_ka_in is None else org_ka_in
        if ka is None:
            raise TypeError(f"{api}: takes (org_m_in, org_n_in, org_k_in) or (org_m_in, org_n_in, org_ka_in, "
                            "org_kb_in)")
        kb = ka if org_kb_in is None else org_kb_in
        vals = (_int(api, "org_m_in", org_m_in), _int(api, "org_n_in", org_n_in), _int(api, "org_ka_in", ka),
                _int(api, "org_kb_in", kb))
        self._s["org_m"], self._s["org_n"], self._s["org_ka"], self._s["org_kb"] = vals
        return 0

    def set_shape(self, m: int, n: int, k: int) -> int:
        """The M, N and K this tiling computes (the whole matrices' too, until set_org_shape)."""
        api = self._api("set_shape")
        vals = (_int(api, "m", m), _int(api, "n", n), _int(api, "k", k))
        self._s["single_m"], self._s["single_n"], self._s["single_k"] = vals
        s = self._s
        if s["org_m"] == -1 and s["org_n"] == -1 and s["org_ka"] == -1 and s["org_kb"] == -1:
            s["org_m"], s["org_n"], s["org_ka"], s["org_kb"] = vals[0], vals[1], vals[2], vals[2]
        return 0

    def _k0(self) -> int:
        bits = {DataType.DT_FLOAT: 32, DataType.DT_INT32: 32, DataType.DT_FLOAT16: 16, DataType.DT_BF16: 16,
                DataType.DT_BFLOAT16: 16, DataType.DT_INT16: 16, DataType.DT_UINT16: 16, DataType.DT_INT8: 8,
                DataType.DT_UINT8: 8, DataType.DT_INT4: 4}.get(DataType(self._s["a_dtype"]), 0)
        return 256 // bits if bits else 0

    def set_fix_split(self, base_m_in: int = -1, base_n_in: int = -1, base_k_in: int = -1) -> int:
        """Fixes the base block (-1: chosen): baseM and baseN multiples of 16,
        baseK of a fractal's K for A's data type; -1 otherwise (the devkit's)."""
        api = self._api("set_fix_split")
        m, n, k = _int(api, "base_m_in", base_m_in), _int(api, "base_n_in", base_n_in), _int(api, "base_k_in",
                                                                                             base_k_in)
        if 0 in (m, n, k):
            return -1
        if m != -1:
            if m % _C0_SIZE:
                return -1
            self._s["base_m"] = self._s["max_base_m"] = self._s["min_base_m"] = m
        if n != -1:
            if n % _C0_SIZE:
                return -1
            self._s["base_n"] = self._s["max_base_n"] = self._s["min_base_n"] = n
        if k != -1:
            k0 = self._k0()
            if k0 == 0 or k % k0:
                return -1
            self._s["base_k"] = self._s["max_base_k"] = self._s["min_base_k"] = k
        return 0

    def set_split_range(self, max_base_m: int = -1, max_base_n: int = -1, max_base_k: int = -1,
                        min_base_m: int = -1, min_base_n: int = -1, min_base_k: int = -1) -> int:
        """Bounds of the base block the search may choose (each rounded down to 16; -1: no bound set)."""
        api = self._api("set_split_range")
        vals = {"max_base_m": max_base_m, "max_base_n": max_base_n, "max_base_k": max_base_k,
                "min_base_m": min_base_m, "min_base_n": min_base_n, "min_base_k": min_base_k}
        for name, v in vals.items():
            v = _int(api, name, v)
            if v != -1 and self._s["base_" + name[-1]] == -1:
                self._s[name] = v - v % _C0_SIZE
        return 0

    def set_buffer_space(self, l1_size: int = -1, l0_c_size: int = -1, ub_size: int = -1, bt_size: int = -1) -> int:
        """The L1, L0C, UB and bias-table bytes the matmul may use (-1: all of
        them); -1 if one is more than the core has."""
        api = self._api("set_buffer_space")
        vals = {"l1_size": _int(api, "l1_size", l1_size), "l0c_size": _int(api, "l0_c_size", l0_c_size),
                "ub_size": _int(api, "ub_size", ub_size), "bt_size": _int(api, "bt_size", bt_size)}
        for key, v in vals.items():
            if v < -1 or v > self._limits[key]:
                _log.info("MatmulApi Tiling: %s: %s = %d is out of range [-1, %d]", api, key, v, self._limits[key])
                return -1
        for key, v in vals.items():
            if v != -1:
                self._s[key] = v if key == "bt_size" else v - v % _ALIGN
        return 0

    def set_traverse(self, traverse: MatrixTraverse) -> int:
        """The order of the base blocks (FIRSTM, FIRSTN; NOSET: chosen)."""
        self._s["traverse"] = _member(self._api("set_traverse"), "traverse", traverse, MatrixTraverse)
        return 0

    def set_mad_type(self, mad_type: MatrixMadType) -> int:
        self._s["mad_type"] = _member(self._api("set_mad_type"), "mad_type", mad_type, MatrixMadType)
        return 0

    def set_double_buffer(self, a: bool, b: bool, c: bool, bias: bool, trans_nd2nz: bool = True,
                          trans_nz2nd: bool = True) -> int:
        """Reserved in the devkit: accepted and ignored."""
        api = self._api("set_double_buffer")
        for name, v in (("a", a), ("b", b), ("c", c), ("bias", bias), ("trans_nd2nz", trans_nd2nz),
                        ("trans_nz2nd", trans_nz2nd)):
            _flag(api, name, v)
        return 0

    def set_dequant_type(self, dequant_type: DequantType) -> int:
        _member(self._api("set_dequant_type"), "dequant_type", dequant_type, DequantType)
        self._dequant = dequant_type
        return 0

    def set_sparse(self, is_sparce_in: bool = False) -> int:
        self._sparse = _flag(self._api("set_sparse"), "is_sparce_in", is_sparce_in)
        return 0

    def set_matmul_config_params(self, mm_config_type_in: Any = 1, enable_l1_cache_ub_in: bool = False,
                                 schedule_type_in: ScheduleType = ScheduleType.INNER_PRODUCT,
                                 traverse_in: MatrixTraverse = MatrixTraverse.NOSET,
                                 en_vec_nd2nz_in: bool = False, *,
                                 config_params: Optional[MatmulConfigParams] = None) -> None:
        """The Matmul's configuration: set_matmul_config_params(MatmulConfigParams(...)) or its fields."""
        if isinstance(mm_config_type_in, MatmulConfigParams):
            config_params = mm_config_type_in
        if config_params is None:
            config_params = MatmulConfigParams(mm_config_type_in, enable_l1_cache_ub_in, schedule_type_in,
                                               traverse_in, en_vec_nd2nz_in)
        elif not isinstance(config_params, MatmulConfigParams):
            raise TypeError(f"{self._api('set_matmul_config_params')}: config_params must be a MatmulConfigParams")
        self._config = config_params
        self._s["traverse"] = int(config_params.traverse)
        return None

    # ---- batches and layouts -------------------------------------------------------
    def _set_layout(self, method: str, which: str, names: Tuple[str, ...], values: Tuple[Any, ...]) -> int:
        api = self._api(method)
        for n, v in zip(names, values):
            self._s[f"{which}_layout_{n}"] = _int(api, n, v)
        return 0

    def set_a_layout(self, b: int, s: int, n: int, g: int, d: int) -> int:
        """A's B, S, N, G, D axes (for the BSNGD, SBNGD, BNGS1S2 layouts of iterate_batch)."""
        return self._set_layout("set_a_layout", "a", ("b", "s", "n", "g", "d"), (b, s, n, g, d))

    def set_b_layout(self, b: int, s: int, n: int, g: int, d: int) -> int:
        """B's B, S, N, G, D axes."""
        return self._set_layout("set_b_layout", "b", ("b", "s", "n", "g", "d"), (b, s, n, g, d))

    def set_c_layout(self, b: int, s: int, n: int, g: int, d: int) -> int:
        """C's B, S1, N, G, S2 axes."""
        return self._set_layout("set_c_layout", "c", ("b", "s1", "n", "g", "s2"), (b, s, n, g, d))

    def set_batch_num(self, batch: int) -> int:
        self._s["batch_num"] = _int(self._api("set_batch_num"), "batch", batch)
        return 0

    def set_batch_info_for_normal(self, batch_a: int, batch_b: int, m: int, n: int, k: int) -> int:
        """The NORMAL (BMNK) layout's batches and shape: the layouts of A, B and C from them."""
        api = self._api("set_batch_info_for_normal")
        ba, bb = _int(api, "batch_a", batch_a), _int(api, "batch_b", batch_b)
        m, n, k = _int(api, "m", m), _int(api, "n", n), _int(api, "k", k)
        self._set_layout("set_batch_info_for_normal", "a", ("b", "s", "n", "g", "d"), (ba, m, 1, 1, k))
        self._set_layout("set_batch_info_for_normal", "b", ("b", "s", "n", "g", "d"), (bb, n, 1, 1, k))
        self._set_layout("set_batch_info_for_normal", "c", ("b", "s1", "n", "g", "s2"), (max(ba, bb), m, 1, 1, n))
        return 0

    # ---- the result ------------------------------------------------------------------
    def get_tiling(self, tiling: "TCubeTiling") -> int:
        """Computes the tiling into `tiling` (an asc.adv.TCubeTiling): 0, or -1
        (tiling unchanged; the reason logged on the "asc.lib.host" logger as
        "MatmulApi Tiling: ..." and kept in .error)."""
        if not isinstance(tiling, _tcube_tiling()) or tiling.handle is not None:
            raise TypeError(f"{self._api('get_tiling')}: tiling must be an asc.adv.TCubeTiling made on the host, "
                            f"got {type(tiling).__name__}")
        ret, values, split, message = _C.host_matmul_tiling(self._s)
        if ret != 0:
            self.error = message
            _log.warning("MatmulApi Tiling: %s: %s", self._api("get_tiling"), message)
            return -1
        self.error = ""
        for name, v in zip(_tcube_names(), values):
            setattr(tiling, name, v)
        self._result = tuple(values)
        self._split = split
        self._s_base = (tiling.base_m, tiling.base_n, tiling.base_k)
        return 0

    def _base(self, i: int, key: str) -> int:
        done = getattr(self, "_s_base", None)
        return done[i] if done is not None else self._s[key]

    def get_base_m(self) -> int:
        """baseM of the last tiling (before one: the fixed one, or -1)."""
        return self._base(0, "base_m")

    def get_base_n(self) -> int:
        return self._base(1, "base_n")

    def get_base_k(self) -> int:
        return self._base(2, "base_k")


class MatmulApiTiling(MatmulApiTilingBase):
    """The tiling of a matmul on one core."""


class MultiCoreMatmulTiling(MatmulApiTilingBase):
    """The tiling of a matmul split over set_dim cores (M and N split; each
    core takes a single_core_m x single_core_n block)."""

    def set_dim(self, dim: int) -> int:
        """How many cores the matmul may use."""
        self._s["dim"] = _int(self._api("set_dim"), "dim", dim)
        return 0

    def set_single_shape(self, single_m_in: int = -1, single_n_in: int = -1, single_k_in: int = -1) -> int:
        """Fixes each core's block (a value > 0; else chosen)."""
        api = self._api("set_single_shape")
        for key, name, v in (("single_core_m", "single_m_in", single_m_in),
                             ("single_core_n", "single_n_in", single_n_in),
                             ("single_core_k", "single_k_in", single_k_in)):
            v = _int(api, name, v)
            if v > 0:
                self._s[key] = v
        return 0

    def set_single_range(self, max_m: int = -1, max_n: int = -1, max_k: int = -1, min_m: int = -1,
                         min_n: int = -1, min_k: int = -1) -> int:
        """Bounds of each core's block (-1: none)."""
        api = self._api("set_single_range")
        for key, v in (("max_single_m", max_m), ("max_single_n", max_n), ("max_single_k", max_k),
                       ("min_single_m", min_m), ("min_single_n", min_n), ("min_single_k", min_k)):
            self._s[key] = _int(api, key.replace("_single", ""), v)
        return 0

    def set_align_split(self, align_m: int, align_n: int, align_k: int) -> int:
        """Each core's block a multiple of these (a value > 0)."""
        api = self._api("set_align_split")
        for key, v in (("align_m", align_m), ("align_n", align_n), ("align_k", align_k)):
            v = _int(api, key, v)
            if v > 0:
                self._s[key] = v
        return 0

    def enable_multi_core_split_k(self, flag: bool) -> None:
        """Accepted; the split here never divides K over cores (docs/host_tiling.md)."""
        self._s["split_k"] = int(_flag(self._api("enable_multi_core_split_k"), "flag", flag))
        return None

    def get_core_num(self) -> Optional[Tuple[int, int, int]]:
        """(dim, m_dim, n_dim) of the last tiling; None before one."""
        if self._split is None:
            return None
        return self._split[0], self._split[1], self._split[2]

    def get_single_shape(self) -> Optional[Tuple[int, int, int]]:
        """(single_core_m, single_core_n, single_core_k) of the last tiling; None before one."""
        if self._result is None:
            return None
        names = _tcube_names()
        r = self._result
        return (r[names.index("single_core_m")], r[names.index("single_core_n")], r[names.index("single_core_k")])


class BatchMatmulTiling(MatmulApiTilingBase):
    """The tiling of a batched matmul (one batch's tiling, layouts as set)."""

    def get_core_num(self) -> Optional[Tuple[int, int, int, int, int]]:
        """(dim, m_dim, n_dim, batch_core_m, batch_core_n) of the last tiling; None before one."""
        return None if self._split is None else tuple(self._split)  # type: ignore[return-value]


__all__ = ["PlatformAscendC", "PlatformAscendCManager", "MatmulConfigParams", "MatmulApiTilingBase",
           "MatmulApiTiling", "MultiCoreMatmulTiling", "BatchMatmulTiling"]
