"""family: adv tiling (misc). `asc.adv.MatmulApiStaticTiling` and `asc.adv.get_matmul_api_tiling`: the
devkit's constant Matmul tiling (include/adv_api/matmul/tiling.h, constant_tiling.h; its algorithm in
impl/adv_api/tiling/matmul/matmul_constant_tiling_impl.h and _utils.h) for the Ascend910B.

GetMatmulApiTiling is a constexpr C++ function: the tiling is fixed when the kernel compiles. Here it is computed
in Python, the devkit's integer arithmetic step by step (int32, division truncating), when the kernel is traced
(or on the host), and the result is an ordinary compile-time value: a MatmulApiStaticTiling is passed to
asc.adv.Matmul as its `matmul_config` (the devkit's MM_CFG template argument, which takes a MatmulConfig or a
MatmulApiStaticTiling), emitted as `static constexpr ... = AscendC::GetMatmulApiTiling<A, B, C, BIAS>(cfg, l1)`
(or, when its fields were changed, their values)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Optional, Tuple

from ..core import dtype as dt
from ..core.checks import describe, error
from ..core.enums import CubeFormat, IterateOrder, LayoutMode, ScheduleType, TPosition  # type: ignore[attr-defined]
from .types import MatmulConfig

INT32_MAX = 2**31 - 1
# Impl:: constants of matmul_constant_tiling_utils.h and kernel_utils_constants.h (Ascend910B)
C0_BYTE_SIZE = 32
HW_C0 = 16
DB_ON = 2
DB_OFF = 1
MIN_MTE1_LOAD = 32
OUTER_STEP = 2
BT_SIZE = 1024
MIN_MN_SIZE = 16
L1_SIZE = 512 * 1024  # the devkit's Impl::L1_SIZE for __NPU_ARCH__ 2201
TOTAL_L0A_SIZE = 64 * 1024
TOTAL_L0B_SIZE = 64 * 1024


@dataclass
class MatmulApiStaticTiling:
    """The devkit's MatmulApiStaticTiling: the constant tiling parameters (every int32 field -1 unless set) and
    the MatmulConfig they were made for (`cfg`). Pass it to asc.adv.Matmul as `matmul_config`."""

    used_core_num: int = -1
    m: int = -1
    n: int = -1
    k_a: int = -1
    k_b: int = -1
    single_core_m: int = -1
    single_core_n: int = -1
    single_core_k: int = -1
    base_m: int = -1
    base_n: int = -1
    base_k: int = -1
    depth_a1: int = -1
    depth_b1: int = -1
    step_m: int = -1
    step_n: int = -1
    is_bias: int = -1
    trans_length: int = -1
    iterate_order: int = -1
    share_mode: int = -1
    share_l1_size: int = -1
    share_l0c_size: int = -1
    share_ub_size: int = -1
    step_k_a: int = -1
    step_k_b: int = -1
    depth_a_l1_cache_ub: int = -1
    depth_b_l1_cache_ub: int = -1
    db_l0a: int = -1
    db_l0b: int = -1
    db_l0c: int = -1
    a_layout_info_b: int = -1
    a_layout_info_s: int = -1
    a_layout_info_n: int = -1
    a_layout_info_g: int = -1
    a_layout_info_d: int = -1
    b_layout_info_b: int = -1
    b_layout_info_s: int = -1
    b_layout_info_n: int = -1
    b_layout_info_g: int = -1
    b_layout_info_d: int = -1
    c_layout_info_b: int = -1
    c_layout_info_s1: int = -1
    c_layout_info_n: int = -1
    c_layout_info_g: int = -1
    c_layout_info_s2: int = -1
    batch_num: int = -1
    mx_type_para: int = -1
    cfg: MatmulConfig = field(default_factory=MatmulConfig)
    # how get_matmul_api_tiling made it (the MatmulTypes' C++, l1_size, the fields then): emitted as that call
    # while the fields are unchanged
    _origin: Optional[Tuple[Any, ...]] = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        for f in self.int_fields():
            v = getattr(self, f)
            if isinstance(v, bool) or not isinstance(v, int) or not -2**31 <= v < 2**31:
                raise error(f"asc.adv.MatmulApiStaticTiling: '{f}' must be a Python int (an int32 member), got "
                            f"{describe(v)}", "hint: the constant tiling's fields are compile-time values")
        if not isinstance(self.cfg, MatmulConfig):
            raise error(f"asc.adv.MatmulApiStaticTiling: 'cfg' must be an asc.adv.MatmulConfig, got "
                        f"{describe(self.cfg)}")

    @staticmethod
    def int_fields() -> Tuple[str, ...]:
        return tuple(f.name for f in dataclasses.fields(MatmulApiStaticTiling)
                     if f.name not in ("cfg", "_origin"))

    def values(self) -> Tuple[int, ...]:
        return tuple(getattr(self, f) for f in self.int_fields())

    def is_full(self) -> bool:
        """Whether the single-core shape is constant too (the devkit's full constantisation: REGIST_MATMUL_OBJ may
        then go without a runtime tiling)."""
        return min(self.single_core_m, self.single_core_n, self.single_core_k) > 0

    def emit_attr(self, types: Tuple[Any, ...]) -> str:
        """asc.matmul's static_tiling attribute: "call:L1|v,...,v" while it is what get_matmul_api_tiling made for
        these MatmulTypes (emitted as GetMatmulApiTiling<...>(cfg, L1)), else "agg:v,...,v" (emitted as the
        aggregate of its int32 fields; the config follows); the simulator reads the values (its shape must agree
        with the runtime tiling)."""
        o = self._origin
        if o is not None and o[0] == _types_key(types) and o[2] == self.values() + (self.cfg.cpp(),):
            return f"call:{o[1]}|" + ",".join(str(v) for v in self.values())
        return "agg:" + ", ".join(str(v) for v in self.values())


# ---- the devkit's arithmetic ------------------------------------------------------------------------------------


def _div(a: int, b: int) -> int:
    """C's int32 division (truncating toward zero)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def _ceil(a: int, b: int) -> int:  # CeilNoLog
    return 0 if b == 0 else _div(a + b - 1, b)


def _align(a: int, b: int) -> int:  # Align
    return 0 if b == 0 else _div(a + b - 1, b) * b


def _nearest_factor(base: int, factor: int) -> int:  # GetNearestFactor
    res = factor
    while res > base or (res > 0 and base % res != 0):
        res -= 1
    return res


_L1_POS = (TPosition.A1, TPosition.B1, TPosition.C1)  # PhyPosIsL1 on 2201 (SHM, TSCM: not in asc.TPosition)
_NOT_UB = (TPosition.GM, TPosition.A1, TPosition.A2, TPosition.B1, TPosition.B2, TPosition.CO1, TPosition.C1,
           TPosition.C2, TPosition.CO2)


@dataclass
class _Status:  # L1Status
    k_al1: int
    k_bl1: int
    m_al1: int
    n_bl1: int
    db_al1: int
    db_bl1: int
    load_size: int

    def copy(self) -> "_Status":
        return dataclasses.replace(self)


_INVALID = (0, 0, 0, 0, 0, 0, INT32_MAX)


class _Calc:
    """GetMatmulApiTiling<A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE>(mmCFG, l1Size), the types' facts bound."""

    def __init__(self, cfg: MatmulConfig, a: Any, b: Any, c: Any, bias: Any) -> None:
        self.c = cfg
        self.a, self.b, self.ct, self.bias = a, b, c, bias
        self.a_bits = a.dtype.bitwidth
        self.b_bits = b.dtype.bitwidth
        self.bias_bits = bias.dtype.bitwidth

    # type facts
    def l1(self, t: Any) -> bool:
        return TPosition(int(t.position)) in _L1_POS

    def ub(self, t: Any) -> bool:
        return TPosition(int(t.position)) not in _NOT_UB

    def gm(self, t: Any) -> bool:
        return TPosition(int(t.position)) in (TPosition.GM, TPosition.CO2)

    def reduce_c0(self, bits: int) -> int:  # GetReduceC0Size
        return _div(C0_BYTE_SIZE, bits) * 8

    def ml0(self) -> int:
        return _ceil(self.c.basic_m, HW_C0)

    def nl0(self) -> int:
        return _ceil(self.c.basic_n, HW_C0)

    def kl0(self, bits: Optional[int] = None) -> int:
        return _ceil(self.c.basic_k, self.reduce_c0(self.a_bits if bits is None else bits))

    def mte1_loop(self) -> int:
        nl0, ml0, kl0 = self.nl0(), self.ml0(), self.kl0()
        return _div(MIN_MTE1_LOAD, (1 if nl0 == 1 else kl0) + (1 if kl0 == 1 else ml0))

    def max_mal1(self) -> int:
        return _ceil(_ceil(self.c.single_core_m, HW_C0), self.ml0())

    def max_nbl1(self) -> int:
        return _ceil(_ceil(self.c.single_core_n, HW_C0), self.nl0())

    def max_kal1(self) -> int:
        ml0, kl0 = self.ml0(), self.kl0()
        return max(_div(_div(MIN_MTE1_LOAD + ml0 - 1, ml0) + kl0 - 1, kl0), self.mte1_loop())

    def max_kbl1(self) -> int:
        nl0, kl0 = self.nl0(), self.kl0()
        return max(_div(_div(MIN_MTE1_LOAD + nl0 - 1, nl0) + kl0 - 1, kl0), self.mte1_loop())

    def ka_align(self) -> int:
        return (2 if self.a.is_trans else 1) if self.a_bits == 32 else 1

    def kb_align(self) -> int:
        return (2 if not self.b.is_trans else 1) if self.b_bits == 32 else 1

    def channel_wise(self) -> int:
        return (2 if self.bias_bits == 32 else 1) if self.c.enable_set_bias else 0

    def bias_l1(self, s: _Status) -> int:
        if not self.c.enable_set_bias or self.l1(self.bias):
            return 0
        return s.n_bl1 * self.c.basic_n * (self.channel_wise() * s.db_bl1 * self.bias_bits // 8)

    def dequant(self, s: _Status) -> int:
        return s.n_bl1 * self.c.basic_n * 8 if self.c.enable_quant_vector else 0

    def al1_size(self, s: _Status) -> int:
        c = self.c
        if self.l1(self.a):
            return 0
        if self.ub(self.a):
            return _div(c.single_core_m * c.single_core_k * self.a_bits, 8)
        return _div(s.db_al1 * s.m_al1 * c.basic_m * _ceil(s.k_al1, self.kl0())
                    * _align(c.basic_k, self.ka_align() * self.reduce_c0(self.a_bits)) * self.a_bits, 8)

    def bl1_size(self, s: _Status) -> int:
        c = self.c
        if self.l1(self.b):
            return 0
        if self.ub(self.b):
            return _div(c.single_core_k * c.single_core_n * self.b_bits, 8)
        return _div(s.db_bl1 * s.n_bl1 * c.basic_n * _ceil(s.k_bl1, self.kl0())
                    * _align(c.basic_k, self.kb_align() * self.reduce_c0(self.b_bits)) * self.b_bits, 8)

    def l1_size(self, s: _Status) -> int:  # GetL1Size (no scale positions on the 910B)
        return self.al1_size(s) + self.bl1_size(s) + self.bias_l1(s) + self.dequant(s)

    def l1_max_len(self, left: int, s: _Status, align: int, kind: str) -> int:  # CalcL1MaxLen
        c = self.c
        if kind == "KAL1_16":
            return _div(left, _div(s.db_al1 * s.m_al1 * c.basic_m
                                   * _align(c.basic_k, align * self.reduce_c0(self.a_bits)) * self.a_bits, 8)) \
                * self.kl0()
        if kind == "KBL1_16":
            return _div(left, _div(s.db_bl1 * s.n_bl1 * c.basic_n
                                   * _align(c.basic_k, align * self.reduce_c0(self.b_bits)) * self.b_bits, 8)) \
                * self.kl0(self.b_bits)
        if kind == "M_AL1":
            return _div(left, _align(s.k_al1, align) * c.basic_m * s.db_al1 * C0_BYTE_SIZE)
        return _div(left, _align(s.k_bl1, align) * c.basic_n * s.db_bl1 * C0_BYTE_SIZE
                    + self.channel_wise() * c.basic_n * C0_BYTE_SIZE)

    def k(self) -> int:
        return _ceil(self.c.single_core_k, self.reduce_c0(self.a_bits))

    def outer(self) -> bool:
        c = self.c
        return (((c.do_norm and LayoutMode(int(self.a.layout)) == LayoutMode.NONE) or c.do_multi_data_load)
                and ScheduleType(int(c.schedule_type)) == ScheduleType.OUTER_PRODUCT)

    # the L1 strategies
    def both_full(self, l1: int) -> _Status:
        k, kl0 = self.k(), self.kl0()
        kal1 = _align(k, kl0)
        if self.l1(self.a) and self.l1(self.b):
            return _Status(kal1, kal1, 1, 1, 1, 1, 0)
        s = _Status(kal1, kal1, self.max_mal1(), self.max_nbl1(), 1, 1, INT32_MAX)
        m = _ceil(self.c.single_core_m, HW_C0)
        n = _ceil(self.c.single_core_n, HW_C0)
        if self.l1_size(s) <= l1:
            load = (0 if self.l1(self.a) else m) + (0 if self.l1(self.b) else n)
            return _Status(kal1, kal1, self.max_mal1(), self.max_nbl1(), 1, 1, load)
        return _Status(*_INVALID)

    def al1_full(self, l1: int) -> _Status:
        c = self.c
        rc0 = self.reduce_c0(self.a_bits)
        k, kl0 = self.k(), self.kl0()
        kal1 = _align(k, kl0)
        max_mal1 = self.max_mal1()
        s = _Status(kal1, kl0, max_mal1, 1, 1, 1, 0)
        if self.outer() and IterateOrder(int(c.iterate_order)) == IterateOrder.ORDER_M:
            s.n_bl1 = OUTER_STEP
        if self.l1_size(s) > l1:
            return _Status(*_INVALID)
        m = _ceil(c.single_core_m, HW_C0)
        a_l1 = _div(max(max_mal1 * c.basic_m, m * HW_C0) * _ceil(k, kl0)
                    * _align(c.basic_k, self.ka_align() * rc0) * self.a_bits, 8)
        b_l1 = l1 if self.l1(self.a) else l1 - a_l1
        s.db_bl1 = DB_ON
        if self.l1_size(s) > l1:
            s.db_bl1 = DB_OFF
        bias, deq = self.bias_l1(s), self.dequant(s)
        s.k_bl1 = min(self.l1_max_len(b_l1 - bias - deq, s, self.kb_align(), "KBL1_16"), k)
        b_times = min(_div(s.k_bl1, kl0), self.max_kbl1())
        a_times = _ceil(k, kl0)
        b_times = _nearest_factor(a_times, b_times)
        s.k_bl1 = b_times * kl0
        if s.k_bl1 == k:
            s.n_bl1 = min(self.l1_max_len(b_l1, s, self.kb_align(), "N_BL1"), self.max_nbl1())
            n_rep = _ceil(c.single_core_n, c.basic_n)
            s.n_bl1 = _nearest_factor(n_rep, s.n_bl1)
            if s.n_bl1 * c.basic_n == c.single_core_n:
                s.db_bl1 = DB_OFF
        invalid = s.n_bl1 == 0 or s.k_bl1 == 0
        m_rep = _ceil(c.single_core_m, c.basic_m)
        possible = 1 if s.k_bl1 == k else m_rep
        n = _ceil(c.single_core_n, HW_C0)
        s.load_size = INT32_MAX if invalid else (0 if self.l1(self.a) else m) + possible * n
        return s

    def bl1_full(self, l1: int) -> _Status:
        c = self.c
        rc0 = self.reduce_c0(self.a_bits)
        k, kl0 = self.k(), self.kl0()
        kbl1 = _align(k, kl0)
        max_nbl1 = self.max_nbl1()
        s = _Status(kl0, kbl1, 1, max_nbl1, 1, 1, 0)
        if self.outer() and IterateOrder(int(c.iterate_order)) == IterateOrder.ORDER_N:
            s.m_al1 = OUTER_STEP
        if self.l1_size(s) > l1:
            return _Status(*_INVALID)
        n = _ceil(c.single_core_n, HW_C0)
        b_l1 = _div(max(max_nbl1 * c.basic_n, n * HW_C0) * _ceil(k, kl0)
                    * _align(c.basic_k, self.kb_align() * rc0) * self.b_bits, 8)
        a_l1 = l1 if self.l1(self.b) else l1 - b_l1
        s.db_al1 = DB_ON
        if self.l1_size(s) > l1:
            s.db_al1 = DB_OFF
        bias, deq = self.bias_l1(s), self.dequant(s)
        s.k_al1 = min(self.l1_max_len(a_l1 - bias - deq, s, self.ka_align(), "KAL1_16"), k)
        a_times = min(_div(s.k_al1, kl0), self.max_kal1())
        a_times = _nearest_factor(_ceil(k, kl0), a_times)
        s.k_al1 = a_times * kl0
        if s.k_al1 == k:
            s.m_al1 = min(self.l1_max_len(a_l1 - bias, s, self.ka_align(), "M_AL1"), self.max_mal1())
            m_rep = _ceil(c.single_core_m, c.basic_m)
            s.m_al1 = _nearest_factor(m_rep, s.m_al1)
            if s.m_al1 * c.basic_m == c.single_core_m:
                s.db_al1 = DB_OFF
        invalid = s.m_al1 == 0 or s.k_al1 == 0
        n_rep = _ceil(c.single_core_n, c.basic_n)
        possible = 1 if s.k_al1 == k else n_rep
        m = _ceil(c.single_core_m, HW_C0)
        s.load_size = INT32_MAX if invalid else (0 if self.l1(self.b) else n) + possible * m
        return s

    def db_neither(self, l1: int) -> _Status:  # GetL1DbNeitherFullLoad
        c = self.c
        k, kl0 = self.k(), self.kl0()
        s = _Status(kl0, DB_ON, 1, 1, DB_ON, DB_ON, 0)
        if self.outer():
            order = IterateOrder(int(c.iterate_order))
            if order == IterateOrder.ORDER_M:
                s.n_bl1 = OUTER_STEP
            elif order == IterateOrder.ORDER_N:
                s.m_al1 = OUTER_STEP
        if self.l1_size(s) > l1:
            s.db_bl1 = DB_OFF
            if self.l1_size(s) > l1:
                s.db_al1 = DB_OFF
        s.k_bl1 = k
        m = _ceil(c.single_core_m, HW_C0)
        both_db = m != self.ml0() and c.single_core_k > c.basic_k and self.l1_size(s) > l1
        s.k_bl1 = kl0
        if both_db:
            s.db_al1 = DB_ON
            s.db_bl1 = DB_ON
            if self.l1_size(s) > l1:
                s.db_bl1 = DB_OFF
                if self.l1_size(s) > l1:
                    s.db_al1 = DB_OFF
        return s

    def k_max_axis(self) -> int:  # GetKMaxAxis
        at, bt = bool(self.a.is_trans), bool(self.b.is_trans)
        if not at and not bt:
            return 1
        if at and bt:
            return 2
        if not at and bt:
            return 1 if self.c.basic_m > self.c.basic_n else 2
        return 0

    def kl1_neither_nz(self, s0: _Status, l1: int, bias: int, deq: int) -> _Status:
        c = self.c
        s = s0.copy()
        max_mal1 = self.max_mal1()
        k, kl0 = self.k(), self.kl0()
        a_times = _ceil(k, kl0)
        if self.l1_size(s) <= l1:
            a_l1 = l1 - self.bl1_size(s)
            s.k_al1 = min(self.l1_max_len(a_l1 - bias - deq, s, self.ka_align(), "KAL1_16"), k)
            a_times = max(min(_div(s.k_al1, kl0), max_mal1), 1)
            a_times = _nearest_factor(_ceil(k, kl0), a_times)
            s.k_al1 = a_times * kl0
        else:
            per_k = min(_div(_div(l1 - bias - deq, c.basic_m * C0_BYTE_SIZE * s.db_al1
                                  + c.basic_n * C0_BYTE_SIZE * s.db_bl1), kl0) * kl0, k)
            a_per = _align(per_k, self.ka_align())
            b_per = _align(per_k, self.kb_align())
            a_l1 = s.m_al1 * c.basic_m * a_per * s.db_al1 * (self.a_bits // 8)
            b_l1 = s.n_bl1 * c.basic_n * b_per * s.db_bl1 * (self.b_bits // 8)
            if self.a.dtype == dt.float32 and a_l1 + b_l1 + deq + bias > l1:
                per_k -= 1
            per_times = min(_div(per_k, kl0), max(self.max_kal1(), self.max_kbl1()))
            per_times = _nearest_factor(a_times, per_times)
            per_times = min(per_times, a_times)
            per_k = per_times * kl0
            s.k_al1 = per_k
            s.k_bl1 = per_k
        return s

    def kl1_neither(self, s0: _Status, l1: int, bias: int, deq: int) -> _Status:
        c = self.c
        s = s0.copy()
        k, kl0 = self.k(), self.kl0()
        axis = self.k_max_axis()
        a_times = _ceil(k, kl0)
        if axis == 0:
            s.k_bl1 = k
            s = self.kl1_neither_nz(s, l1, bias, deq)
        elif axis == 1:
            s.k_bl1 = kl0
            a_l1 = l1 - self.bl1_size(s)
            s.k_al1 = min(_div(a_l1 - bias - deq, s.m_al1 * c.basic_m * s.db_al1 * C0_BYTE_SIZE), k)
            a_times = max(_div(s.k_al1, kl0), 1)
            a_times = _nearest_factor(_ceil(k, kl0), a_times)
            s.k_al1 = a_times * kl0
            a_l1 = s.k_al1 * s.m_al1 * c.basic_m * C0_BYTE_SIZE * s.db_al1
            b_l1 = l1 - a_l1
            s.k_bl1 = min(_div(b_l1 - deq - bias,
                               _div(s.n_bl1 * c.basic_n * s.db_bl1 * c.basic_k * kl0 * self.b_bits, 8)), k)
            b_times = max(min(_div(s.k_bl1, kl0), self.max_kbl1()), 1)
            b_times = _nearest_factor(_ceil(k, kl0), b_times)
            s.k_bl1 = b_times * kl0
        else:
            s.k_al1 = kl0
            b_l1 = l1 - self.al1_size(s)
            s.k_bl1 = min(_div(b_l1 - bias - deq, s.n_bl1 * c.basic_n * s.db_bl1 * C0_BYTE_SIZE), k)
            b_times = max(_div(s.k_bl1, kl0), 1)
            b_times = _nearest_factor(a_times, b_times)
            s.k_bl1 = b_times * kl0
            b_l1 = s.k_bl1 * s.n_bl1 * c.basic_n * C0_BYTE_SIZE * s.db_bl1
            a_l1 = l1 - b_l1
            s.k_al1 = min(_div(a_l1 - deq - bias,
                               _div(s.m_al1 * c.basic_m * s.db_al1 * c.basic_k * kl0 * self.a_bits, 8)), k)
            a_times = max(min(_div(s.k_al1, kl0), self.max_kal1()), 1)
            a_times = _nearest_factor(_ceil(k, kl0), a_times)
            s.k_al1 = a_times * kl0
        return s

    def m_first(self, s0: _Status, l1: int) -> _Status:  # GetL1StatusMFirst
        c = self.c
        n_rep = _ceil(c.single_core_n, c.basic_n)
        m_rep = _ceil(c.single_core_m, c.basic_m)
        s = s0.copy()
        a_l1 = l1 - self.bl1_size(s)
        bias, deq = self.bias_l1(s), self.dequant(s)
        s.m_al1 = max(min(self.l1_max_len(a_l1 - bias - deq, s, self.ka_align(), "M_AL1"), self.max_mal1(),
                          m_rep), 1)
        s.m_al1 = _nearest_factor(m_rep, s.m_al1)
        b_l1 = l1 - self.al1_size(s)
        s.n_bl1 = max(min(self.l1_max_len(b_l1 - bias - deq, s, self.kb_align(), "N_BL1"), self.max_nbl1(),
                          n_rep), 1)
        s.n_bl1 = _nearest_factor(m_rep, s.n_bl1)  # (the devkit's: the M repeats here too)
        m = _ceil(c.single_core_m, HW_C0)
        n = _ceil(c.single_core_n, HW_C0)
        s.load_size = m + n * _ceil(m, s.m_al1 * self.ml0())
        return s

    def n_first(self, s0: _Status, l1: int) -> _Status:  # GetL1StatusNFirst
        c = self.c
        n_rep = _ceil(c.single_core_n, c.basic_n)
        m_rep = _ceil(c.single_core_m, c.basic_m)
        s = s0.copy()
        b_l1 = l1 - self.al1_size(s)
        bias, deq = self.bias_l1(s), self.dequant(s)
        # (the devkit passes the incoming status here)
        s.n_bl1 = max(min(self.l1_max_len(b_l1 - bias - deq, s0, self.kb_align(), "N_BL1"), self.max_nbl1(),
                          n_rep), 1)
        s.n_bl1 = _nearest_factor(n_rep, s.n_bl1)
        a_l1 = l1 - self.bl1_size(s)
        s.m_al1 = max(min(self.l1_max_len(a_l1 - bias - deq, s, self.ka_align(), "M_AL1"), self.max_mal1(),
                          m_rep), 1)
        s.m_al1 = _nearest_factor(m_rep, s.m_al1)
        s.n_bl1 = _nearest_factor(m_rep, s.n_bl1)
        m = _ceil(c.single_core_m, HW_C0)
        n = _ceil(c.single_core_n, HW_C0)
        s.load_size = n + m * _ceil(n, s.n_bl1 * self.nl0())
        return s

    def neither_full(self, l1: int) -> _Status:
        c = self.c
        k = self.k()
        s = self.db_neither(l1)
        bias, deq = self.bias_l1(s), self.dequant(s)
        s = self.kl1_neither(s, l1, bias, deq)
        if s.k_al1 > s.k_bl1 and s.k_al1 % s.k_bl1 != 0:
            while s.k_al1 % s.k_bl1 != 0 or (s.k_al1 != s.k_bl1 and k % s.k_al1 != 0):
                s.k_al1 -= 1
        if s.k_al1 < s.k_bl1 and s.k_bl1 % s.k_al1 != 0:
            while s.k_bl1 % s.k_al1 != 0 or (s.k_al1 != s.k_bl1 and k % s.k_bl1 != 0):
                s.k_bl1 -= 1
        mf = self.m_first(s, l1)
        nf = self.n_first(s, l1)
        if s.k_al1 >= k and s.k_bl1 >= k:
            s = mf if nf.load_size > mf.load_size else nf
        if s.k_al1 >= k and s.k_bl1 < k:
            s.n_bl1 = 1
        if s.k_al1 < k and s.k_bl1 >= k:
            s.m_al1 = 1
        if s.k_al1 < k and s.k_bl1 < k:
            s.m_al1 = 1
            s.n_bl1 = 1
            m = _ceil(c.single_core_m, HW_C0)
            n = _ceil(c.single_core_n, HW_C0)
            nl0 = self.nl0()
            s.load_size = m * _ceil(n, nl0) + n * _ceil(m, nl0)
        return s

    def l1_factor(self, l1: int) -> _Status:  # GetL1Factor
        c = self.c
        s = self.both_full(l1)
        both_nd = (CubeFormat(int(self.a.format)) == CubeFormat.ND and CubeFormat(int(self.b.format)) == CubeFormat.ND)
        rs = self.reduce_c0(self.a_bits)
        ka_f = _ceil(_ceil(c.single_core_k, rs), s.k_al1) if s.k_al1 > 0 else 1
        kb_f = _ceil(_ceil(c.single_core_k, rs), s.k_bl1) if s.k_bl1 > 0 else 1
        full = (s.load_size != INT32_MAX and ka_f == 1 and kb_f == 1) if both_nd else s.load_size != INT32_MAX
        if full:
            return s
        a_full = self.al1_full(l1) if not self.l1(self.b) else _Status(*_INVALID)
        b_full = self.bl1_full(l1) if not self.l1(self.a) else _Status(*_INVALID)
        neither = (self.neither_full(l1) if not self.l1(self.a) and not self.l1(self.b) else _Status(*_INVALID))
        ka_f = _ceil(_ceil(c.single_core_k, rs), a_full.k_al1) if a_full.load_size != INT32_MAX else 1
        if (a_full.load_size != INT32_MAX and ka_f == 1) if both_nd else a_full.load_size != INT32_MAX:
            return a_full
        kb_f = _ceil(_ceil(c.single_core_k, rs), b_full.k_bl1) if b_full.load_size != INT32_MAX else 1
        if (b_full.load_size != INT32_MAX and kb_f == 1) if both_nd else b_full.load_size != INT32_MAX:
            return b_full
        return neither

    def al1_full_tiling(self, l1: int, t: MatmulApiStaticTiling) -> bool:  # CalcAL1FullLoadTiling
        if t.single_core_m > MIN_MN_SIZE or t.single_core_n > MIN_MN_SIZE:
            return False
        if t.is_bias:
            l1 -= _div(BT_SIZE, 8)
        ka = _align(t.base_k, self.ka_align() * self.reduce_c0(self.a_bits))
        kb = _align(t.base_k, self.kb_align() * self.reduce_c0(self.b_bits))
        base_a = _div(t.base_m * ka * self.a_bits, 8)
        base_b = _div(t.base_n * kb * self.b_bits, 8)
        depth_a1 = _div(l1 - DB_ON * base_b, base_a)
        if depth_a1 * t.base_m * ka < t.single_core_m * t.single_core_k:
            return False
        depth_a1 = _div(_div(max(t.single_core_m, t.base_m) * max(t.single_core_k, ka), t.base_m), ka)
        t.depth_a1 = depth_a1
        t.step_k_a = depth_a1
        step_kb = _div(_div(l1 - depth_a1 * base_a, base_b), DB_ON)
        if step_kb * DB_ON * base_b > t.single_core_k * t.single_core_n:
            step_kb = _div(_div(_div(max(t.single_core_k, kb) * max(t.single_core_n, t.base_n), t.base_n), kb),
                           DB_ON)
        if step_kb < 1:
            t.depth_b1 = 1
            t.step_k_b = 1
            return True
        while t.step_k_a % step_kb != 0 and step_kb % t.step_k_a != 0 and step_kb > 1:
            step_kb -= 1
        t.depth_b1 = step_kb * DB_ON
        t.step_k_b = step_kb
        return True

    def iterate_order(self, s: _Status) -> int:  # GetIterateOrder
        c = self.c
        rs = self.reduce_c0(self.a_bits)
        full_a = c.single_core_k <= s.k_al1 * rs
        full_b = c.single_core_k <= s.k_bl1 * rs
        if not full_a and not full_b:
            return 0
        if full_a and not full_b:
            return 1
        if not full_a and full_b:
            return 0
        m_loop = _ceil(c.single_core_m, s.m_al1 * c.basic_m)
        n_loop = _ceil(c.single_core_n, s.n_bl1 * c.basic_n)
        a_load = c.single_core_m + c.single_core_n * m_loop
        b_load = c.single_core_n + c.single_core_m * n_loop
        return 1 if a_load < b_load else 0

    def l0_db(self, basic: int, bits: int, size: int) -> int:  # GetL0ADb / GetL0BDb
        return DB_OFF if _div(basic * self.c.basic_k * bits, 8) > size // DB_ON else DB_ON

    def trans_length(self, s: _Status) -> int:  # GetTransLength
        c = self.c
        vec = (TPosition.VECIN, TPosition.VECCALC, TPosition.VECOUT)
        a1 = b1 = c1 = 0
        if CubeFormat(int(self.a.format)) == CubeFormat.ND and TPosition(int(self.a.position)) in vec:
            a1 = _div(c.single_core_m * c.single_core_k * self.a_bits, 8)
        if CubeFormat(int(self.b.format)) == CubeFormat.ND and TPosition(int(self.b.position)) in vec:
            b1 = _div(c.single_core_k * c.single_core_n * self.a_bits, 8)
        if CubeFormat(int(self.ct.format)) == CubeFormat.ND or TPosition(int(self.ct.position)) == TPosition.GM:
            c1 = _div(c.basic_m * c.basic_n * self.ct.dtype.bitwidth, 8)
        return max(a1, b1, c1, self.bias_l1(s))

    def l1_used(self, s: _Status, depth_a1: int, depth_b1: int) -> int:  # GetL1UsedSize (4 arguments)
        c = self.c
        size = 0
        if not self.l1(self.a):
            size += _div(depth_a1 * c.basic_m * c.basic_k * self.a_bits, 8)
        if not self.l1(self.b):
            bits = self.b_bits if self.a.dtype == self.b.dtype else self.a_bits
            size += _div(depth_b1 * c.basic_n * c.basic_k * bits, 8)
        if c.enable_set_bias and not self.l1(self.bias):
            size += _div(c.basic_n * self.bias_bits, 8)
        return size + self.dequant(s)

    def tiling(self, l1: int) -> MatmulApiStaticTiling:
        c = self.c
        t = MatmulApiStaticTiling(cfg=c)
        if c.single_core_m == 0 or c.single_core_n == 0 or c.single_core_k == 0:
            if c.basic_m != 0 and c.basic_n != 0 and c.basic_k != 0:
                t.base_m, t.base_n, t.base_k = c.basic_m, c.basic_n, c.basic_k
                t.db_l0a = self.l0_db(c.basic_m, self.a_bits, TOTAL_L0A_SIZE)
                t.db_l0b = self.l0_db(c.basic_n, self.b_bits, TOTAL_L0B_SIZE)
                t.is_bias = int(c.enable_set_bias)
            return t
        s = self.l1_factor(l1)
        t.m = t.single_core_m = c.single_core_m
        t.n = t.single_core_n = c.single_core_n
        t.k_a = t.k_b = t.single_core_k = c.single_core_k
        t.base_m, t.base_n, t.base_k = c.basic_m, c.basic_n, c.basic_k
        t.is_bias = int(c.enable_set_bias)
        t.step_m = s.m_al1
        t.step_n = s.n_bl1
        if not self.al1_full_tiling(l1, t):
            kl0 = self.kl0()
            t.step_k_a = _ceil(s.k_al1, kl0)
            t.step_k_b = _ceil(s.k_bl1, kl0)
            t.depth_a1 = _ceil(s.k_al1, kl0) * s.m_al1 * s.db_al1
            t.depth_b1 = _ceil(s.k_bl1, kl0) * s.n_bl1 * s.db_bl1
        t.iterate_order = self.iterate_order(s)
        t.db_l0a = self.l0_db(c.basic_m, self.a_bits, TOTAL_L0A_SIZE)
        t.db_l0b = self.l0_db(c.basic_n, self.b_bits, TOTAL_L0B_SIZE)
        t.db_l0c = 1
        t.trans_length = self.trans_length(s)
        t.share_mode = 0
        t.share_l1_size = self.l1_used(s, t.depth_a1, t.depth_b1)
        t.share_l0c_size = _div(c.basic_m * c.basic_n * 32, 8)
        t.share_ub_size = 0
        return t


def compute_for(cfg: MatmulConfig, l1_size: int, a: Any, b: Any, c: Any, bias: Any) -> MatmulApiStaticTiling:
    """GetMatmulApiTiling<a, b, c, bias>(cfg, l1_size) (the MatmulTypes as asc.adv.MatmulType), remembering how
    it was made so that the emitted code can say so."""
    t = _Calc(cfg, a, b, c, bias).tiling(l1_size)
    t._origin = (_types_key((a, b, c, bias)), l1_size, t.values() + (cfg.cpp(),))
    return t


def _types_key(types: Tuple[Any, ...]) -> Tuple[Any, ...]:
    return tuple((int(t.position), int(t.format), t.dtype, bool(t.is_trans), int(t.layout)) for t in types)
