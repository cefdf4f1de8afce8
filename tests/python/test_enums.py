"""The enums of the Python API, made from the C core's enum table
(include/asc/enums.def through asc._C.enum_infos()): every enum of upstream
pyasc's core/enums.py with its members and values (hard-coded below from
upstream, since CI has no mirror of it), exported from `asc` as upstream
exports them; the members the IR carries and refuses; and the Ascend C
spelling of every member, compiled with g++ against our declaration of the
API (tests/ascendc/kernel_operator.h).

`python tests/python/test_enums.py --devkit` prints a translation unit that
uses every spelling but Matmul's policies, `--devkit-policies` one that uses
those, for ../shared/tools/ascendc-check/check.sh (the real devkit headers).
"""

from __future__ import annotations

import enum
import pickle
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Tuple

import numpy as np
import pytest

import asc
import asc._C as C
from asc.language.core import enums

HEADER_DIR = Path(__file__).resolve().parents[1] / "ascendc"

# upstream pyasc's python/asc/language/core/enums.py: class -> "MEMBER=value ..." in its order
UPSTREAM: Dict[str, str] = {
    "AippInputFormat": "YUV420SP_U8=0 XRGB8888_U8=1 RGB888_U8=4 YUV400_U8=9",
    "BatchMode": "NONE=0 BATCH_LESS_THAN_L1=1 BATCH_LARGE_THAN_L1=2 SINGLE_LARGE_THAN_L1=3",
    "BlockMode": "BLOCK_MODE_NORMAL=0 BLOCK_MODE_MATRIX=1 BLOCK_MODE_VECTOR=2 BLOCK_MODE_SMALL_CHANNEL=3 "
                 "BLOCK_MODE_DEPTHWISE=4",
    "CacheLine": "SINGLE_CACHE_LINE=0 ENTIRE_DATA_CACHE=1",
    "CacheMode": "CACHE_MODE_NORMAL=0 CACHE_MODE_DISABLE=1 CACHE_MODE_LAST=2 CACHE_MODE_PERSISTENT=4",
    "CacheRwMode": "READ=1 WRITE=2 RW=3",
    "CubeFormat": "ND=0 NZ=1",
    "DataFormat": "ND=0 NZ=1 NCHW=2 NC1HWC0=3 NHWC=4",
    "DcciDst": "CACHELINE_ALL=0 CACHELINE_UB=1 CACHELINE_OUT=2 CACHELINE_ATOMIC=3",
    "DeqScale": "DEQ_NONE=0 DEQ=1 VDEQ=2 DEQ8=3 VDEQ8=4 DEQ16=5 VDEQ16=6",
    "GatherMaskMode": "DEFAULT=0",
    "HardEvent": "MTE2_MTE1=0 MTE1_MTE2=1 MTE1_M=2 M_MTE1=3 MTE2_V=4 V_MTE2=5 MTE3_V=6 V_MTE3=7 M_V=8 V_M=9 V_V=10 "
                 "MTE3_MTE1=11 MTE1_MTE3=12 MTE1_V=13 MTE2_M=14 M_MTE2=15 V_MTE1=16 M_FIX=17 FIX_M=18 MTE3_MTE2=19 "
                 "MTE2_MTE3=20 S_V=21 V_S=22 S_MTE2=23 MTE2_S=24 S_MTE3=25 MTE3_S=26 MTE2_FIX=27 FIX_MTE2=28 "
                 "FIX_S=29 M_S=30 FIX_MTE3=31 MTE1_FIX=32 FIX_MTE1=33 FIX_FIX=34",
    "Hardware": "GM=0 UB=1 L1=2 L0A=3 L0B=4 L0C=5 BIAS=6 FIXBUF=7 MAX=8",
    "IterateMode": "ITERATE_MODE_NORMAL=1 ITERATE_MODE_ALL=2 ITERATE_MODE_BATCH=4 ITERATE_MODE_N_BATCH=8 "
                   "ITERATE_MODE_DEFAULT=255",
    "IterateOrder": "ORDER_M=0 ORDER_N=1 UNDEF=2",
    "LayoutMode": "NONE=0 NORMAL=1 BSNGD=2 SBNGD=3 BNGS1S2=4",
    "MatmulConfigMode": "CONFIG_NORM=1 CONFIG_MDL=2 CONFIG_SPECIALMDL=3 CONFIG_IBSHARE=4",
    "MatmulPolicy": "MatmulPolicy=0 TrianUpperMatmulPolicy=1 TrianLowerMatmulPolicy=2 NBuffer33MatmulPolicy=3",
    "PipeID": "PIPE_S=0 PIPE_V=1 PIPE_M=2 PIPE_MTE1=3 PIPE_MTE2=4 PIPE_MTE3=5 PIPE_ALL=6 PIPE_MTE4=7 PIPE_MTE5=8 "
              "PIPE_V2=9 PIPE_FIX=10",
    "MemDsbT": "ALL=0 DDR=1 UB=2 SEQ=3",
    "QuantModes": "NoQuant=0 F322F16=1 F322BF16=2 DEQF16=3 VDEQF16=4 QF322B8_PRE=5 VQF322B8_PRE=6 REQ8=7 VREQ8=8",
    "MaskMode": "NORMAL=0 COUNTER=1",
    "ScheduleType": "INNER_PRODUCT=0 OUTER_PRODUCT=1",
    "ReduceOrder": "ORDER_VALUE_INDEX=0 ORDER_INDEX_VALUE=1 ORDER_ONLY_VALUE=2 ORDER_ONLY_INDEX=3",
    "RoundMode": "CAST_NONE=0 CAST_RINT=1 CAST_FLOOR=2 CAST_CEIL=3 CAST_ROUND=4 CAST_TRUNC=5 CAST_ODD=6",
    "TransposeType": "TRANSPOSE_TYPE_NONE=0 TRANSPOSE_NZ2ND_0213=1 TRANSPOSE_NZ2NZ_0213=2 "
                     "TRANSPOSE_NZ2NZ_012_WITH_N=3 TRANSPOSE_NZ2ND_012_WITH_N=4 TRANSPOSE_NZ2ND_012_WITHOUT_N=5 "
                     "TRANSPOSE_NZ2NZ_012_WITHOUT_N=6 TRANSPOSE_ND2ND_ONLY=7 TRANSPOSE_ND_UB_GM=8 "
                     "TRANSPOSE_GRAD_ND_UB_GM=9 TRANSPOSE_ND2ND_B16=10 TRANSPOSE_NCHW2NHWC=11 "
                     "TRANSPOSE_NHWC2NCHW=12",
    "TPosition": "GM=0 A1=1 A2=2 B1=3 B2=4 C1=5 C2=6 CO1=7 CO2=8 VECIN=9 VECOUT=10 VECCALC=11 MAX=12",
    "pad_t": "PAD_NONE=0 PAD_MODE1=1 PAD_MODE2=2 PAD_MODE3=3 PAD_MODE4=4 PAD_MODE5=5 PAD_MODE6=6 PAD_MODE7=7 "
             "PAD_MODE8=8",
    "BatchOutMode": "SINGLE_BATCH=0 MULTI_BATCH=1 DYNAMIC=2",
    "CMPMODE": "LT=0 GT=1 EQ=2 LE=3 GE=4 NE=5",
    "CO2Layout": "NZ=0 ROW_MAJOR=1 COLUMN_MAJOR=2",
    "SelMode": "VSEL_CMPMASK_SPR=0 VSEL_TENSOR_SCALAR_MODE=1 VSEL_TENSOR_TENSOR_MODE=2",
    "AtomicDtype": "ATOMIC_NONE=0 ATOMIC_F32=1 ATOMIC_F16=2 ATOMIC_S16=3 ATOMIC_S32=4 ATOMIC_S8=5 ATOMIC_BF16=6",
    "AtomicOp": "ATOMIC_SUM=0",
}
# upstream defines these in core/enums.py but does not export them from asc.language.core
NOT_EXPORTED = {"MatmulPolicy", "BatchOutMode"}

# members whose devkit C++ value is not upstream's (enums.def keeps upstream's and says so)
DEVKIT_VALUE_DIFFERS = {
    ("TPosition", "MAX"), ("CacheMode", "CACHE_MODE_NORMAL"), ("CacheMode", "CACHE_MODE_DISABLE"),
    ("LayoutMode", "NORMAL"), ("LayoutMode", "BSNGD"), ("LayoutMode", "SBNGD"), ("LayoutMode", "BNGS1S2"),
    ("MatmulConfigMode", "CONFIG_NORM"), ("MatmulConfigMode", "CONFIG_MDL"),
    ("MatmulConfigMode", "CONFIG_SPECIALMDL"), ("MatmulConfigMode", "CONFIG_IBSHARE"),
    ("GatherMaskMode", "DEFAULT"),
}
# enums of the Bisheng compiler: no devkit header gives their numbering
COMPILER_ENUMS = {"PipeID", "pad_t", "QuantModes"}
# class templates, not enumerators: spelled as a template argument
TEMPLATE_ENUMS = {"MatmulPolicy"}
# the members the IR does not carry: pipes the Ascend910B does not have, a count sentinel
NOT_IN_IR = {("PipeID", "PIPE_MTE4"), ("PipeID", "PIPE_MTE5"), ("PipeID", "PIPE_V2"), ("TPosition", "MAX")}


def _upstream(name: str) -> List[Tuple[str, int]]:
    return [(m.split("=")[0], int(m.split("=")[1])) for m in UPSTREAM[name].split()]


@pytest.mark.parametrize("name", sorted(UPSTREAM))
def test_every_upstream_enum_has_its_members_and_values(name: str) -> None:
    cls = enums.ENUMS[name]
    assert issubclass(cls, enum.IntEnum) and cls.__name__ == name
    assert [(m.name, m.value) for m in cls] == _upstream(name)
    assert getattr(enums, name) is cls
    if name in NOT_EXPORTED:
        assert not hasattr(asc, name) and name not in asc.__all__
    else:
        assert getattr(asc, name) is cls and getattr(asc.language.core, name) is cls and name in asc.__all__


def test_the_enums_are_upstreams_and_no_others() -> None:
    assert set(enums.ENUMS) == set(UPSTREAM)
    assert set(enums.__all__) == set(UPSTREAM) - NOT_EXPORTED
    # the IR's own enum (the predicate of a scalar comparison) has no Python class
    kinds = {info["name"]: info for info in C.enum_infos()}
    assert kinds["CmpPredicate"]["python"] == "" and not hasattr(asc, "CmpPredicate")
    assert set(kinds) == set(UPSTREAM) | {"CmpPredicate"}


def test_classes_are_made_from_the_c_table() -> None:
    for info in C.enum_infos():
        if not info["python"]:
            continue
        cls = enums.ENUMS[info["name"]]
        assert [(m.name, m.value) for m in cls] == [(n, v) for n, v, _, _ in info["members"]]
        assert info["python"] == ("enums" if info["name"] in NOT_EXPORTED else "asc")
        for n, _, cpp, ir in info["members"]:
            assert enums.cpp_spelling(cls[n]) == cpp and cpp.endswith(n if info["name"] != "GatherMaskMode" else
                                                                      "defaultGatherMaskMode")
            assert cpp.startswith(info["prefix"])
            assert enums.in_ir(cls[n]) == ir == ((info["name"], n) not in NOT_IN_IR)


def test_the_enums_behave_as_before() -> None:
    """The test suite and user code rely on these: IntEnum members, equal to their values, picklable."""
    assert asc.TPosition.VECIN == 9 and asc.TPosition(9) is asc.TPosition.VECIN and isinstance(asc.TPosition.VECIN, int)
    assert asc.HardEvent["V_S"] is asc.HardEvent.V_S and int(asc.HardEvent.V_S) == 22
    assert asc.PipeID.PIPE_FIX == 10 and asc.RoundMode.CAST_ODD == 6
    for member in (asc.TPosition.VECCALC, asc.CubeFormat.NZ, asc.pad_t.PAD_MODE8, asc.QuantModes.VDEQF16,
                   enums.MatmulPolicy.NBuffer33MatmulPolicy):
        assert pickle.loads(pickle.dumps(member)) is member
    assert type(asc.TPosition.VECIN).__module__ == "asc.language.core.enums"
    with pytest.raises(ValueError):
        asc.TPosition(13)
    assert asc.SelMode.VSEL_TENSOR_TENSOR_MODE == 2  # (upstream writes its values as one-element tuples)


def _kernel_module() -> Tuple[C.Module, C.Block]:
    m = C.Module("enums")
    f = m.add_function("k", [], [], True, ("k.py", 1, 0))
    return m, f.region(0)


def test_the_ir_refuses_the_members_it_does_not_carry() -> None:
    for kind, name in sorted(NOT_IN_IR):
        m, block = _kernel_module()
        value = int(enums.ENUMS[kind][name])
        if kind == "PipeID":
            with pytest.raises(ValueError, match="not a valid PipeID"):
                m.create(block, "asc.pipe_barrier", [], [], {"pipe": ("PipeID", value)})
            with pytest.raises(C.IRError):
                C.Module.parse(PIPE_BARRIER.format(pipe=name), "refused.ascir")
        else:
            with pytest.raises(ValueError, match="TPosition"):
                m.type("local_tensor", "float32", value)


PIPE_BARRIER = """module {{
  "func.func"() ({{
    "asc.pipe_barrier"() {{pipe = #asc<PipeID {pipe}>}} : () -> () loc("k.py":2:0)
    "func.return"() : () -> () loc("k.py":3:0)
  }}) {{sym_name = "k", kernel = 1 : i64, res_types = []}} : () -> () loc("k.py":1:0)
}}
"""


def _ir_members(kind: str) -> List[enum.IntEnum]:
    return [m for m in enums.ENUMS[kind] if enums.in_ir(m)]


def test_the_ir_prints_parses_and_emits_every_member_it_carries() -> None:
    """HardEvent (set_flag), PipeID (pipe_barrier), RoundMode (cast) and TPosition (local tensor types):
    every member the IR carries goes through the IR text and comes out of the emitter spelt as the table
    says."""
    m, block = _kernel_module()
    i32 = m.type("scalar", "int32")
    loc = ("k.py", 2, 0)

    def const(v: int) -> C.Value:
        return m.create(block, "arith.constant", [], [i32], {"value": (v, i32)}, None, loc).results[0]

    zero, count = const(0), const(64)
    for ev in _ir_members("HardEvent"):
        m.create(block, "asc.set_flag", [zero], [], {"event": ("HardEvent", int(ev))}, None, loc)
        m.create(block, "asc.wait_flag", [zero], [], {"event": ("HardEvent", int(ev))}, None, loc)
    for p in _ir_members("PipeID"):
        m.create(block, "asc.pipe_barrier", [], [], {"pipe": ("PipeID", int(p))}, None, loc)
    f32, f16 = (m.type("local_tensor", dt, int(asc.TPosition.VECCALC)) for dt in ("float32", "float16"))
    dst = m.create(block, "asc.local_tensor", [zero, count], [f32], None, None, loc).results[0]
    src = m.create(block, "asc.local_tensor", [const(256), count], [f16], None, None, loc).results[0]
    for r in _ir_members("RoundMode"):
        m.create(block, "asc.cast", [dst, src, count], [], {"round_mode": ("RoundMode", int(r))}, None, loc)
    for pos in _ir_members("TPosition"):
        t = m.type("local_tensor", "float32", int(pos))
        m.create(block, "asc.local_tensor", [const(512), count], [t], None, None, loc)
    m.create(block, "func.return", [], [], None, None, ("k.py", 3, 0))
    m.verify()
    text = m.print()
    assert C.Module.parse(text, "again.ascir").print() == text
    cpp = m.emit_ascendc(line_comments=False)
    for ev in _ir_members("HardEvent"):
        assert f"#asc<HardEvent {ev.name}>" in text
        assert f"AscendC::SetFlag<{enums.cpp_spelling(ev)}>(" in cpp and f"AscendC::WaitFlag<{enums.cpp_spelling(ev)}>(" in cpp
    for p in _ir_members("PipeID"):
        assert f"#asc<PipeID {p.name}>" in text and f"AscendC::PipeBarrier<{enums.cpp_spelling(p)}>()" in cpp
    for r in _ir_members("RoundMode"):
        assert f"#asc<RoundMode {r.name}>" in text and f", {enums.cpp_spelling(r)}, " in cpp
    for pos in _ir_members("TPosition"):
        assert f"!asc.local_tensor<f32, {pos.name}>" in text and f"({enums.cpp_spelling(pos)}, " in cpp


def translation_unit(devkit: bool = False, policies: bool = False) -> str:
    """C++ that uses every member's Ascend C spelling; against our declaration header it also checks
    each value that the devkit shares with upstream. With devkit, for the devkit's own headers: the
    enums but Matmul's policies, or (policies) only those."""
    lines = ['#include "kernel_operator.h"']
    if devkit:
        lines += ['#include "adv_api/matmul/matmul_config.h"']
    if devkit and policies:
        lines += ['#include "adv_api/matmul/tiling.h"', '#include "detail/matmul/policy/matmul_policy.h"']
    lines += ["template <template <const auto &, typename, typename, typename, typename, typename> class P>",
              "struct UsesPolicy {};", "", "void uses_every_enum() {"]
    policy_uses = []
    for info in C.enum_infos():
        kind = info["name"]
        if not info["python"]:
            continue
        for name, value, cpp, _ in info["members"]:
            if kind in TEMPLATE_ENUMS:
                policy_uses.append(f"UsesPolicy<{cpp}> {kind}_{name};")
                continue
            if devkit and policies:
                continue
            lines.append(f"  {{ auto v = {cpp}; (void)v; }}")
            if not devkit and kind not in COMPILER_ENUMS and (kind, name) not in DEVKIT_VALUE_DIFFERS:
                lines.append(f'  static_assert(static_cast<long long>({cpp}) == {value}, "{kind}.{name}");')
    lines.append("}")
    if not devkit or policies:
        lines += policy_uses
    return "\n".join(lines) + "\n"


def test_every_spelling_compiles_against_kernel_operator_h(tmp_path: Path) -> None:
    if shutil.which("g++") is None:
        pytest.fail("g++ is needed to check the Ascend C spellings (install the GNU C++ compiler)")
    src = tmp_path / "enums.cpp"
    src.write_text(translation_unit())
    out = subprocess.run(["g++", "-std=c++17", "-fsyntax-only", "-Wall", "-Werror", "-I", str(HEADER_DIR), str(src)],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr[:3000]
    # the check can fail: a misspelt member does not compile
    src.write_text(translation_unit().replace("AscendC::CMPMODE::LT", "AscendC::CMPMODE::LTT"))
    bad = subprocess.run(["g++", "-std=c++17", "-fsyntax-only", "-I", str(HEADER_DIR), str(src)],
                         capture_output=True, text=True)
    assert bad.returncode != 0 and "LTT" in bad.stderr


def test_front_end_keeps_refusing_pipes_the_ascend910b_does_not_have() -> None:
    @asc.jit(always_compile=True)
    def barrier(x: asc.GlobalAddress):
        asc.pipe_barrier(asc.PipeID.PIPE_MTE4)

    with pytest.raises(asc.UnsupportedError, match="PIPE_MTE4"):
        barrier[1](np.zeros(8, np.float32))


if __name__ == "__main__":
    print(translation_unit(devkit=bool({"--devkit", "--devkit-policies"} & set(sys.argv[1:])),
                           policies="--devkit-policies" in sys.argv[1:]), end="")
