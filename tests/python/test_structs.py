"""Parameter structs: the table (include/asc/structs.def) and everything
that reads it — the Python classes, the IR type and ops (`asc.struct`,
`asc.struct.get`), the verifier, the printer and parser, the emitter, and the
simulator, where a struct value is one register slot per field and must stay
whole through control flow and calls.
"""

from __future__ import annotations

import inspect
from typing import Any, Dict, List

import numpy as np
import pytest

import asc
from asc import _C
from asc.language.core.types import STRUCTS, ParamStruct

TABLE: List[Dict[str, Any]] = _C.struct_infos()


# ---------------------------------------------------------------------------
# the Python classes come from the table
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("info", TABLE, ids=[i["name"] for i in TABLE])
def test_class_per_table_row(info: Dict[str, Any]) -> None:
    # (test_param_structs.py has the constructors' signatures, upstream's where they differ from the table)
    cls = getattr(asc, info["name"])
    assert cls is STRUCTS[info["name"]] and issubclass(cls, ParamStruct)
    fields = info["fields"]  # (name, C++ name, kind, type, default, array length)
    # (family matmul: MatrixOffset is in the global namespace, as matmul_config.h declares it)
    assert info["cpp"].startswith("AscendC::") or info["name"] == "MatrixOffset"
    required = [p for p in inspect.signature(cls).parameters.values() if p.default is inspect.Parameter.empty]
    if required:
        return  # (no default object: test_param_structs.py makes one of each)
    value = cls()
    assert len(value.values()) == len(fields)
    for f, v in zip(fields, value.values()):
        if f[2] == "number" and f[5]:
            assert v == [f[4]] * f[5]  # an array field: every element its default
        elif f[2] == "number":
            assert v == f[4]
        elif f[2] == "enum":
            assert isinstance(v, getattr(asc.language.core.enums, f[3])) and int(v) == f[4]
        else:  # a nested struct: a new one per object, with its defaults
            assert f[2] == "struct" and isinstance(v, STRUCTS[f[3]])


def test_upstream_signatures_and_defaults() -> None:
    b = asc.BinaryRepeatParams(2, dst_rep_stride=4)
    assert b.values() == (2, 1, 1, 4, 8, 8)
    assert repr(b).startswith("BinaryRepeatParams(dst_blk_stride=2,")
    u = asc.UnaryRepeatParams(src_rep_stride=4)
    assert u.values() == (1, 1, 8, 4)


@pytest.mark.parametrize("call,exc,match", [
    (lambda: asc.BinaryRepeatParams(256), ValueError, r"dst_blk_stride = 256 is out of range \[0, 255\]"),
    (lambda: asc.UnaryRepeatParams(65535, 65536), ValueError, r"src_blk_stride = 65536 is out of range \[0, 65535\]"),
    (lambda: asc.UnaryRepeatParams(1, 1, -1), ValueError, r"dst_rep_stride = -1 is out of range \[0, 255\]"),
    (lambda: asc.BinaryRepeatParams(1.5), TypeError, "dst_blk_stride must be an integer"),
    (lambda: asc.BinaryRepeatParams(True), TypeError, "dst_blk_stride must be an integer"),
    (lambda: asc.BinaryRepeatParams(1, 2, 3, 4, 5, 6, 7), TypeError, "too many"),
    (lambda: asc.UnaryRepeatParams(nope=1), TypeError, "unexpected keyword"),
])
def test_field_checks(call: Any, exc: type, match: str) -> None:
    with pytest.raises(exc, match=match):
        call()


def test_fields_are_checked_when_set() -> None:
    u = asc.UnaryRepeatParams()
    u.dst_rep_stride = 4
    assert u.dst_rep_stride == 4
    with pytest.raises(ValueError, match="out of range"):
        u.dst_rep_stride = 300
    with pytest.raises(AttributeError, match="has no field `stride`"):
        u.stride = 1


# ---------------------------------------------------------------------------
# IR: values of struct type through control flow and calls, field reads
# ---------------------------------------------------------------------------

# A device function takes a UnaryRepeatParams and returns it with one field
# changed; the kernel carries a struct through scf.for and out of scf.if, then
# stores every field. If any copy lost a field slot, the stored values differ.
STRUCT_FLOW = """
module @flow {
  "func.func"() ({
  ^bb0(%p: !asc.struct<UnaryRepeatParams>, %k: i32):
    %a = "asc.struct.get"(%p) {field = "dst_blk_stride"} : (!asc.struct<UnaryRepeatParams>) -> ui16 loc("f.py":3:0)
    %b = "asc.struct.get"(%p) {field = "src_blk_stride"} : (!asc.struct<UnaryRepeatParams>) -> ui16 loc("f.py":3:0)
    %c = "asc.struct.get"(%p) {field = "src_rep_stride"} : (!asc.struct<UnaryRepeatParams>) -> ui8 loc("f.py":3:0)
    %r = "asc.struct"(%a, %b, %k, %c) : (ui16, ui16, i32, ui8) -> !asc.struct<UnaryRepeatParams> loc("f.py":4:0)
    "func.return"(%r) : (!asc.struct<UnaryRepeatParams>) -> () loc("f.py":5:0)
  }) {sym_name = "bump", kernel = 0 : i64, res_types = [!asc.struct<UnaryRepeatParams>]} : () -> () loc("f.py":2:0)
  "func.func"() ({
  ^bb0(%out: !asc.global_address<i32>, %n: i32):
    %g = "asc.global_tensor"() : () -> !asc.global_tensor<i32> loc("f.py":10:0)
    "asc.global_tensor.set_global_buffer"(%g, %out) : (!asc.global_tensor<i32>, !asc.global_address<i32>) -> () loc("f.py":10:0)
    %c0 = "arith.constant"() {value = 0 : i32} : () -> i32 loc("f.py":11:0)
    %c1 = "arith.constant"() {value = 1 : i32} : () -> i32 loc("f.py":11:0)
    %c2 = "arith.constant"() {value = 2 : i32} : () -> i32 loc("f.py":11:0)
    %c3 = "arith.constant"() {value = 3 : i32} : () -> i32 loc("f.py":11:0)
    %c7 = "arith.constant"() {value = 7 : i32} : () -> i32 loc("f.py":11:0)
    %s0 = "asc.struct"(%c1, %c2, %c3, %c7) : (i32, i32, i32, i32) -> !asc.struct<UnaryRepeatParams> loc("f.py":12:0)
    %s = "scf.for"(%c0, %n, %c1, %s0) ({
    ^bb0(%i: i32, %acc: !asc.struct<UnaryRepeatParams>):
      %nxt = "func.call"(%acc, %i) {callee = "bump"} : (!asc.struct<UnaryRepeatParams>, i32) -> !asc.struct<UnaryRepeatParams> loc("f.py":14:0)
      "scf.yield"(%nxt) : (!asc.struct<UnaryRepeatParams>) -> () loc("f.py":14:0)
    }) : (i32, i32, i32, !asc.struct<UnaryRepeatParams>) -> !asc.struct<UnaryRepeatParams> loc("f.py":13:0)
    %big = "arith.cmp"(%n, %c2) {predicate = #asc<CmpPredicate GT>} : (i32, i32) -> i1 loc("f.py":15:0)
    %t = "scf.if"(%big) ({
      "scf.yield"(%s) : (!asc.struct<UnaryRepeatParams>) -> () loc("f.py":16:0)
    }, {
      "scf.yield"(%s0) : (!asc.struct<UnaryRepeatParams>) -> () loc("f.py":17:0)
    }) : (i1) -> !asc.struct<UnaryRepeatParams> loc("f.py":15:0)
    %f0 = "asc.struct.get"(%t) {field = "dst_blk_stride"} : (!asc.struct<UnaryRepeatParams>) -> ui16 loc("f.py":18:0)
    %f1 = "asc.struct.get"(%t) {field = "src_blk_stride"} : (!asc.struct<UnaryRepeatParams>) -> ui16 loc("f.py":18:0)
    %f2 = "asc.struct.get"(%t) {field = "dst_rep_stride"} : (!asc.struct<UnaryRepeatParams>) -> ui8 loc("f.py":18:0)
    %f3 = "asc.struct.get"(%t) {field = "src_rep_stride"} : (!asc.struct<UnaryRepeatParams>) -> ui8 loc("f.py":18:0)
    "asc.global_tensor.set_value"(%g, %c0, %f0) : (!asc.global_tensor<i32>, i32, ui16) -> () loc("f.py":19:0)
    "asc.global_tensor.set_value"(%g, %c1, %f1) : (!asc.global_tensor<i32>, i32, ui16) -> () loc("f.py":19:0)
    "asc.global_tensor.set_value"(%g, %c2, %f2) : (!asc.global_tensor<i32>, i32, ui8) -> () loc("f.py":19:0)
    "asc.global_tensor.set_value"(%g, %c3, %f3) : (!asc.global_tensor<i32>, i32, ui8) -> () loc("f.py":19:0)
    "func.return"() : () -> () loc("f.py":20:0)
  }) {sym_name = "flow", kernel = 1 : i64, res_types = []} : () -> () loc("f.py":9:0)
}
"""


@pytest.mark.parametrize("n,want", [(0, [1, 2, 3, 7]), (2, [1, 2, 3, 7]), (5, [1, 2, 4, 7]), (300, [1, 2, 43, 7])])
def test_struct_values_stay_whole_through_loops_ifs_and_calls(n: int, want: List[int]) -> None:
    # the loop's last call sets dst_rep_stride to n - 1; a uint8_t field reads back modulo 256
    module = _C.Module.parse(STRUCT_FLOW, "flow.ascir")
    kernel = module.compile("flow")
    out = np.full(4, -1, np.int32)
    kernel.launch(1, "Ascend910B1", [out, n], 1, 0)
    assert out.tolist() == want


def test_struct_ir_round_trips_and_emits() -> None:
    module = _C.Module.parse(STRUCT_FLOW, "flow.ascir")
    text = module.print()
    assert "!asc.struct<UnaryRepeatParams>" in text and '"asc.struct.get"' in text
    assert _C.Module.parse(text, "again.ascir").print() == text
    cpp = module.emit_ascendc(line_comments=False)
    assert "AscendC::UnaryRepeatParams bump(AscendC::UnaryRepeatParams p, int32_t k)" in cpp
    assert ".dstBlkStride" in cpp and ".srcRepStride" in cpp


@pytest.mark.parametrize("line,match", [
    ('%s = "asc.struct"(%c1, %c2) : (i32, i32) -> !asc.struct<UnaryRepeatParams>',
     "UnaryRepeatParams has 4 fields, got 2 values"),
    ('%s = "asc.struct"(%c1, %c2, %c1, %f) : (i32, i32, i32, f32) -> !asc.struct<UnaryRepeatParams>',
     "field src_rep_stride of UnaryRepeatParams must be an integer"),
    ('%s = "asc.struct"(%c1, %c2, %c1, %c1) : (i32, i32, i32, i32) -> !asc.struct<NoSuchParams>',
     "'NoSuchParams' is not a parameter struct"),
    ('%s = "asc.struct"(%c1, %c2, %c1, %c1) : (i32, i32, i32, i32) -> !asc.struct<UnaryRepeatParams>\n'
     '    %x = "asc.struct.get"(%s) {field = "nope"} : (!asc.struct<UnaryRepeatParams>) -> ui8',
     "UnaryRepeatParams has no field 'nope'"),
    ('%s = "asc.struct"(%c1, %c2, %c1, %c1) : (i32, i32, i32, i32) -> !asc.struct<UnaryRepeatParams>\n'
     '    %x = "asc.struct.get"(%s) {field = "dst_rep_stride"} : (!asc.struct<UnaryRepeatParams>) -> i32',
     "the result must have the field's type"),
    ('%s = "asc.struct"(%c1, %c2, %c1, %c1) : (i32, i32, i32, i32) -> !asc.struct<UnaryRepeatParams>\n'
     '    %x = "arith.select"(%b, %s, %s) : (i1, !asc.struct<UnaryRepeatParams>, !asc.struct<UnaryRepeatParams>) '
     '-> !asc.struct<UnaryRepeatParams>',
     "cannot select a parameter struct"),
    ('%s = "asc.struct"(%c1, %c2, %c1, %c1) : (i32, i32, i32, i32) -> !asc.struct<UnaryRepeatParams>\n'
     '    %m = "arith.constant"() {value = 64 : ui64} : () -> ui64\n'
     '    "asc.add.l0"(%t, %t, %t, %m, %m, %c1, %s) {mask_mode = 0 : i64} : (!asc.local_tensor<f32, VECCALC>, '
     '!asc.local_tensor<f32, VECCALC>, !asc.local_tensor<f32, VECCALC>, ui64, ui64, i32, '
     '!asc.struct<UnaryRepeatParams>) -> ()',
     "'repeat_params' must be a BinaryRepeatParams"),
])
def test_verifier_rejects_malformed_struct_ir(line: str, match: str) -> None:
    text = f"""
module @bad {{
  "func.func"() ({{
  ^bb0(%n: i32):
    %c1 = "arith.constant"() {{value = 1 : i32}} : () -> i32
    %c2 = "arith.constant"() {{value = 2 : i32}} : () -> i32
    %f = "arith.constant"() {{value = 1.0 : f32}} : () -> f32
    %b = "arith.cmp"(%n, %c1) {{predicate = #asc<CmpPredicate GT>}} : (i32, i32) -> i1
    %t = "asc.local_tensor"(%c1, %c2) : (i32, i32) -> !asc.local_tensor<f32, VECCALC>
    {line}
    "func.return"() : () -> ()
  }}) {{sym_name = "bad", kernel = 1 : i64, res_types = []}} : () -> ()
}}
"""
    with pytest.raises(_C.IRError, match=match):
        _C.Module.parse(text, "bad.ascir").verify()


def test_constants_must_fit_the_fields() -> None:
    text = STRUCT_FLOW.replace('%c7 = "arith.constant"() {value = 7 : i32}',
                               '%c7 = "arith.constant"() {value = 300 : i32}')
    module = _C.Module.parse(text, "flow.ascir")
    module.verify()  # valid IR; C++ would narrow 300 into the uint8_t field
    with pytest.raises(_C.IRError, match="src_rep_stride = 300 does not fit the uint8_t field of "
                                         "AscendC::UnaryRepeatParams"):
        module.compile("flow")
    with pytest.raises(_C.IRError, match="does not fit the uint8_t field"):
        module.emit_ascendc()


# ---------------------------------------------------------------------------
# from a kernel: the struct a level-0 call takes is built where it is used
# ---------------------------------------------------------------------------

@asc.jit
def _level0_branches(x: asc.GlobalAddress, z: asc.GlobalAddress, wide: int):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x, 256)
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z, 256)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 0, 256)
    b = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 1024, 256)
    asc.data_copy(a, x_gm, 256)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.duplicate(b, 0.0, 256)
    params = asc.UnaryRepeatParams(1, 1, 8, 8)
    if wide > 0:
        asc.adds(b, a, 1.0, 64, 4, params)  # built inside the branch
    asc.muls(b, b, 2.0, 64, 4, params)  # and again here, where it is used
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, b, 256)


def test_struct_built_where_it_is_used() -> None:
    x = np.arange(256, dtype=np.float32)
    for wide, want in ((1, (x + 1) * 2), (0, np.zeros(256, np.float32))):
        z = np.full(256, -1, np.float32)
        _level0_branches[1](x, z, wide)
        np.testing.assert_array_equal(z, want)
    compiled = next(iter(_level0_branches.cache.values()))
    assert compiled.ir_text().count('"asc.struct"') == 2
    assert "AscendC::UnaryRepeatParams(1, 1, 8, 8)" in compiled.ascendc()
