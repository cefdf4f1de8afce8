"""Every parameter struct of the table (include/asc/structs.def), generated
from the table: each is made in a kernel with its defaults and with an
explicit value for every field (one of them a runtime value), passed by
value to a device function that reads every field (asc.struct.get, array
elements by constant and by runtime index) into global memory, and compared
on the simulator with what was given; the kernel's IR is printed, parsed and
printed again, and the parsed module runs to the same result (its Ascend C
is checked by the suite's conftest, with g++ against tests/ascendc/
kernel_operator.h). Misuse (a field of the wrong type, a value outside the
field's C type, an unknown keyword, an array of the wrong length) is an
asc.CompileError at its line, with a hint.

Also here: the upstream signatures where they differ from the table, the
template structs' T, the array fields, ShapeInfo and the tensors' shape info.

The kernels are written into one generated module (a file, so that errors
can quote their lines).
"""

from __future__ import annotations

import atexit
import enum
import importlib.util
import inspect
import os
import shutil
import sys
import tempfile
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

import numpy as np
import pytest

import asc
from asc import _C
from asc.language.core import dtype as dt
from asc.language.core.types import STRUCTS, FieldArray, ParamStruct

TABLE: Dict[str, Dict[str, Any]] = {i["name"]: i for i in _C.struct_infos()}
NAMES = list(TABLE)
RT = 7  # the runtime value one field of each explicit struct gets
K = 1  # the runtime index each array field is also read at

# ---------------------------------------------------------------------------
# values for the fields
# ---------------------------------------------------------------------------


def _range(t: dt.DataType) -> Tuple[int, int]:
    bits = t.bitwidth
    if t.is_unsigned():
        return 0, 2**bits - 1
    return -(2 ** (bits - 1)), 2 ** (bits - 1) - 1


def _sample(t: dt.DataType, salt: int) -> Any:
    """A value of C type t that differs from field to field (salt) and from
    the defaults, at the edges of t's range; floats exact in float16."""
    if t == dt.bool_:
        return salt % 2 == 0
    if t.is_float():
        return 0.5 + 0.25 * (salt % 16)
    lo, hi = _range(t)
    return hi - salt if t.is_unsigned() else lo + salt


def _enum_source(member: enum.Enum) -> str:
    cls = type(member).__name__
    owner = "asc" if hasattr(asc, cls) else "asc.language.core.enums"
    return f"{owner}.{cls}.{member.name}"


def _explicit_t(cls: type) -> Optional[dt.DataType]:
    """A template's T other than its default (None: no template)."""
    if cls._template is None:
        return None
    default, allowed = cls._template
    for t in (allowed or (dt.float32, dt.int16)):
        if t != default:
            return t
    return default


@dataclass
class Plan:
    """A construction of struct `name`: the source of the call and the
    numbers each leaf field (an array: each element) then holds."""

    name: str
    source: str
    leaves: List[Tuple[str, Any]] = field(default_factory=list)  # ("i" | "f", value), in table order


def _leaf(ftype: dt.DataType, value: Any) -> Tuple[str, Any]:
    if ftype.is_float():
        return ("f", float(value))
    return ("i", int(value))


def _plan(name: str, explicit: bool, t: Optional[dt.DataType] = None, nested: bool = False,
          salt: int = 0, runtime: bool = True) -> Plan:
    """The call of asc.<name>: explicit, every field given (one from `rt`
    when runtime); else only what the constructor requires. t: the T of a
    template (a nested template takes its holder's)."""
    cls = STRUCTS[name]
    if name == "ShapeInfo":
        return _shape_info_plan(explicit, salt)
    if t is None and not nested:
        t = _explicit_t(cls) if explicit else (cls._template[0] if cls._template else None)
    params = inspect.signature(cls).parameters
    args: List[str] = []
    if cls._dtype_from == "first":
        args.append(f"asc.{t.name}")  # type: ignore[union-attr]
    leaves: List[Tuple[str, Any]] = []
    rt_used = not (explicit and runtime)
    for f in cls._fields:
        required = params[f.name].default is inspect.Parameter.empty
        give = explicit or required
        ftype = f.ctype(t)
        if f.kind == "struct":
            sub = _plan(f.struct_name, explicit, t, nested=True, salt=salt, runtime=False)
            salt += len(sub.leaves)
            leaves += sub.leaves
            if give:
                args.append(f"{f.name}={sub.source}")
            continue
        if f.kind == "enum":
            members = list(f.enum)
            default = f.enum(int(f.table_default))
            member = next(m for m in members[salt % len(members):] + members if m != default) if give else default
            salt += 1
            if give:
                args.append(f"{f.name}={_enum_source(member)}")
            leaves.append(("i", int(member)))
            continue
        assert ftype is not None
        if f.length:
            values = [_sample(ftype, salt + i) for i in range(f.length)] if give else f.default()
            salt += f.length
            if give:
                args.append(f"{f.name}=[{', '.join(repr(v) for v in values)}]")
            leaves += [_leaf(ftype, v) for v in values]
            continue
        if give and not rt_used and ftype.is_int() and ftype != dt.bool_ and not f.is_t:
            args.append(f"{f.name}=rt")  # a runtime value: the struct's operand is the kernel's argument
            leaves.append(("i", RT))
            rt_used = True
            salt += 1
            continue
        value = _sample(ftype, salt) if give else f.default()
        salt += 1
        if give:
            args.append(f"{f.name}={value!r}")
        leaves.append(_leaf(ftype, value))
    if cls._dtype_from == "keyword" and explicit and not nested:
        args.append(f"dtype=asc.{t.name}")  # type: ignore[union-attr]
    return Plan(name, f"asc.{name}({', '.join(args)})", leaves)


def _shape_info_plan(explicit: bool, salt: int) -> Plan:
    if not explicit:
        return Plan("ShapeInfo", "asc.ShapeInfo()", [("i", 0)] * 18 + [("i", 0)])
    shape = ["rt", 3, 4000000000]
    original = [5, 6]
    src = f"asc.ShapeInfo([{', '.join(map(str, shape))}], {original}, asc.DataFormat.NZ)"
    dims = [RT, 3, 4000000000]
    leaves = ([("i", 3)] + [("i", v) for v in dims + [0] * 5] + [("i", 2)]
              + [("i", v) for v in original + [0] * 6] + [("i", int(asc.DataFormat.NZ))])
    return Plan("ShapeInfo", src, leaves)


def _reads(cls: type, expr: str, t: Optional[dt.DataType]) -> List[Tuple[str, str]]:
    """The expressions that read every leaf of a struct value `expr`, each
    with the tensor it goes to ("i" or "f"), in table order."""
    out: List[Tuple[str, str]] = []
    for f in cls._fields:
        # (a method of the class may share a field's name: ShapeInfo.shape(i))
        ref = f"{expr}.field({f.name!r})" if hasattr(cls, f.name) else f"{expr}.{f.name}"
        if f.kind == "struct":
            out += _reads(STRUCTS[f.struct_name], ref, t)
            continue
        ftype = f.ctype(t) if f.kind == "number" else dt.int32
        kind = "f" if ftype is not None and ftype.is_float() else "i"
        if f.length:
            out += [(kind, f"{ref}[{i}]") for i in range(f.length)]
        else:
            out.append((kind, ref))
    return out


def _runtime_index_reads(cls: type, expr: str, t: Optional[dt.DataType]) -> List[Tuple[str, str, str, int]]:
    """Each array field read at the runtime index k: (tensor kind, expression, field, its leaf offset)."""
    out = []
    offset = 0
    for f in cls._fields:
        ref = f"{expr}.field({f.name!r})" if hasattr(cls, f.name) else f"{expr}.{f.name}"
        n = f.length or (len(_reads(STRUCTS[f.struct_name], "x", t)) if f.kind == "struct" else 1)
        if f.length:
            ftype = f.ctype(t)
            out.append(("f" if ftype is not None and ftype.is_float() else "i", f"{ref}[k]", f.name, offset))
        offset += n
    return out


# ---------------------------------------------------------------------------
# the generated module
# ---------------------------------------------------------------------------

@dataclass
class Case:
    name: str  # the struct
    mode: str  # "defaults" | "explicit"
    kernel: str
    plan: Plan
    n_i: int
    n_f: int
    extra: List[Tuple[str, int]]  # the runtime-index reads: (tensor kind, the leaf they read)


@dataclass
class Misuse:
    id: str
    kernel: str
    line: int
    match: str  # a piece of the message


def _misuses(name: str) -> List[Tuple[str, str, str]]:
    """(id, the bad call, a piece of its message) for struct `name`."""
    cls = STRUCTS[name]
    if name == "ShapeInfo":
        return [("ShapeInfo: too many dimensions", "asc.ShapeInfo([1, 2, 3, 4, 5, 6, 7, 8, 9])", "at most 8"),
                ("ShapeInfo: shape not a list", "asc.ShapeInfo(5)", "must be a list"),
                ("ShapeInfo: data_format an int", "asc.ShapeInfo([2], None, 3)", "data_format"),
                ("ShapeInfo: dimension out of range", "asc.ShapeInfo([2 ** 32])", "out of range"),
                ("ShapeInfo: unknown keyword", "asc.ShapeInfo([2], nope=1)", "unexpected keyword")]
    base = _plan(name, False).source
    t = cls._template[0] if cls._template else None
    out = [(f"{name}: unknown keyword", _with(cls, base, "nope", "1"), "unexpected keyword")]

    for f in cls._fields:
        ftype = f.ctype(t)
        if f.kind == "number" and not f.length and ftype is not None and ftype.is_int() and ftype != dt.bool_:
            lo, hi = _range(ftype)
            out += [(f"{name}.{f.name}: above {ftype.name}", _with(cls, base, f.name, str(hi + 1)), "out of range"),
                    (f"{name}.{f.name}: below {ftype.name}", _with(cls, base, f.name, str(lo - 1)), "out of range"),
                    (f"{name}.{f.name}: a float", _with(cls, base, f.name, "1.5"), "must be an integer")]
            break
    for f in cls._fields:
        if f.kind == "enum":
            out.append((f"{name}.{f.name}: an int for an enum", _with(cls, base, f.name, "1"), "must be a member"))
            break
    for f in cls._fields:
        if f.kind == "struct":
            out.append((f"{name}.{f.name}: an int for a struct", _with(cls, base, f.name, "1"),
                        f"must be an asc.{f.struct_name}"))
            break
    for f in cls._fields:
        if f.length:
            out.append((f"{name}.{f.name}: {f.length + 1} elements", _with(cls, base, f.name, repr([0] * (f.length + 1))),
                        f"exactly {f.length} elements"))
            out.append((f"{name}.{f.name}: a number for an array", _with(cls, base, f.name, "3"), "list or tuple"))
    if cls._dtype_from == "first" and cls._template[1]:  # type: ignore[index]
        out.append((f"{name}: T not allowed", f"asc.{name}(asc.float32)", "must be one of"))
    return out


def _with(cls: type, base: str, name: str, value: str) -> str:
    """base (a call of cls with keyword arguments) with argument `name` replaced by value."""
    head = base[:base.index("(") + 1]
    args = _split_args(base[len(head):-1])
    out, done = [], False
    for a in args:
        if a.startswith(f"{name}="):
            out.append(f"{name}={value}")
            done = True
        else:
            out.append(a)
    if not done:
        out.append(f"{name}={value}")
    return head + ", ".join(out) + ")"


def _split_args(text: str) -> List[str]:
    """Top-level comma-separated pieces of an argument list."""
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        parts.append(cur.strip())
    return parts


def _write_module() -> Tuple[Any, List[Case], List[Misuse]]:
    lines = ["import asc", ""]
    cases: List[Case] = []
    misuses: List[Misuse] = []
    readers_done = set()
    for name in NAMES:
        cls = STRUCTS[name]
        for mode in ("defaults", "explicit"):
            plan = _plan(name, mode == "explicit")
            t = _explicit_t(cls) if mode == "explicit" else (cls._template[0] if cls._template else None)
            reads = _reads(cls, "p", t)
            extra = _runtime_index_reads(cls, "p", t)
            reader = f"read_{name}_{t.name if t else 'x'}"
            n_i = sum(1 for k, _ in reads if k == "i") + sum(1 for k, *_ in extra if k == "i")
            n_f = sum(1 for k, _ in reads if k == "f") + sum(1 for k, *_ in extra if k == "f")
            if reader not in readers_done:
                readers_done.add(reader)
                lines += ["", "@asc.jit", f"def {reader}(p, ti: asc.GlobalTensor, tf: asc.GlobalTensor, k: int):"]
                counts = {"i": 0, "f": 0}
                for kind, expr in reads + [(kind, expr) for kind, expr, *_ in extra]:
                    lines.append(f"    t{kind}.set_value({counts[kind]}, {expr})")
                    counts[kind] += 1
                lines.append("")
            kname = f"k_{name}_{mode}"
            lines += ["", "@asc.jit",
                      f"def {kname}(gi: asc.GlobalAddress, gf: asc.GlobalAddress, rt: int, k: int):",
                      "    ti = asc.GlobalTensor()", f"    ti.set_global_buffer(gi, {max(n_i, 1)})",
                      "    tf = asc.GlobalTensor()", f"    tf.set_global_buffer(gf, {max(n_f, 1)})",
                      f"    p = {plan.source}", f"    {reader}(p, ti, tf, k)", ""]
            extra_leaves = [(kind, offset + K) for kind, _expr, _fname, offset in extra]
            cases.append(Case(name, mode, kname, plan, n_i, n_f, extra_leaves))
        for i, (cid, call, match) in enumerate(_misuses(name)):
            kname = f"m_{name}_{i}"
            lines += ["", "@asc.jit(always_compile=True)",
                      f"def {kname}(gi: asc.GlobalAddress, gf: asc.GlobalAddress, rt: int, k: int):"]
            misuses.append(Misuse(cid, kname, len(lines) + 1, match))
            lines += [f"    p = {call}", ""]
    directory = tempfile.mkdtemp(prefix="asc-param-structs-")
    atexit.register(shutil.rmtree, directory, ignore_errors=True)  # (the kernels' source lives until the end)
    path = os.path.join(directory, "asc_param_structs_kernels.py")
    with open(path, "w") as fh:
        fh.write("\n".join(lines) + "\n")
    spec = importlib.util.spec_from_file_location("asc_param_structs_kernels", path)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    sys.modules["asc_param_structs_kernels"] = mod
    spec.loader.exec_module(mod)
    return mod, cases, misuses


MODULE, CASES, MISUSES = _write_module()


def _run(case: Case, launch: Any) -> Tuple[np.ndarray, np.ndarray]:
    gi = np.full(max(case.n_i, 1), -99, np.int64)
    gf = np.full(max(case.n_f, 1), -99.0, np.float32)
    launch(gi, gf)
    return gi, gf


def _expected(case: Case) -> Tuple[List[int], List[float]]:
    ints = [v for k, v in case.plan.leaves if k == "i"]
    floats = [v for k, v in case.plan.leaves if k == "f"]
    for kind, leaf in case.extra:  # the runtime-index reads: element K of each array, after the others
        (ints if kind == "i" else floats).append(case.plan.leaves[leaf][1])
    wrap = [((v + 2**63) % 2**64) - 2**63 for v in ints]  # as an int64 tensor holds a uint64
    return wrap, floats


# ---------------------------------------------------------------------------
# made in a kernel, read back on the simulator, the IR round trip
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("index", range(len(CASES)), ids=[f"{c.name}-{c.mode}" for c in CASES])
def test_fields_read_back_on_the_simulator(index: int) -> None:
    case = CASES[index]
    kernel = getattr(MODULE, case.kernel)
    gi, gf = _run(case, lambda gi, gf: kernel[1](gi, gf, RT, K))
    ints, floats = _expected(case)
    assert gi[:len(ints)].tolist() == ints
    assert gf[:len(floats)].tolist() == pytest.approx(floats)
    # Python -> IR text -> parsed -> printed again, and the parsed module runs the same
    compiled = next(iter(kernel.cache.values()))
    text = compiled.ir_text()
    assert "!asc.struct<" + case.name in text
    module = _C.Module.parse(text, "again.ascir")
    assert module.print() == text
    again = module.compile(case.kernel)
    gi2, gf2 = _run(case, lambda gi, gf: again.launch(1, "Ascend910B1", [gi, gf, RT, K], 1, 0))
    assert gi2.tolist() == gi.tolist() and gf2.tolist() == gf.tolist()
    cpp = compiled.ascendc(line_comments=False)
    assert TABLE[case.name]["cpp"] in cpp


@pytest.mark.parametrize("index", range(len(MISUSES)), ids=[m.id for m in MISUSES])
def test_misuse_is_a_compile_error_at_its_line(index: int) -> None:
    m = MISUSES[index]
    with pytest.raises(asc.CompileError) as info:
        getattr(MODULE, m.kernel)[1](np.zeros(1, np.int64), np.zeros(1, np.float32), RT, K)
    err = info.value
    assert os.path.samefile(err.filename, MODULE.__file__), err
    assert err.line == m.line, err
    assert m.match in err.message, err
    assert err.hint and err.hint.startswith("hint: ") and len(err.hint) > 8, err


def test_every_struct_of_the_table_has_cases() -> None:
    assert {c.name for c in CASES} == set(TABLE) == set(STRUCTS)
    assert {m.id.split(":")[0].split(".")[0] for m in MISUSES} == set(TABLE)
    for name, info in TABLE.items():
        assert getattr(asc, name) is STRUCTS[name] and issubclass(STRUCTS[name], ParamStruct)
        # (family host: the devkit declares its tiling structs in AscendC::tiling)
        # (family matmul: MatrixOffset is in the global namespace, as matmul_config.h declares it)
        tiling_ns = name in ("TCubeTiling", "RmsNormTiling")
        ns = "AscendC::tiling::" if tiling_ns else "" if name == "MatrixOffset" else "AscendC::"
        # (family adv softmax: upstream's SoftmaxTiling is the devkit's AscendC::tiling::SoftMaxTiling)
        if name == "SoftmaxTiling":
            ns, name = "AscendC::tiling::", "SoftMaxTiling"
        assert info["cpp"] == ns + name


# ---------------------------------------------------------------------------
# upstream's constructors
# ---------------------------------------------------------------------------

UPSTREAM = {  # the parameters of upstream pyasc's constructors where they are not the table's fields in order
    "ShapeInfo": "shape=None, original_shape=None, data_format=None",
    "FixpipeParamsV220": "n_size, m_size, src_stride, dst_stride, quant_pre=QuantModes.NoQuant, deq_scalar=0, "
                         "nd_num=1, src_nd_stride=0, dst_nd_stride=0, relu_en=False, unit_flag=0, "
                         "is_channel_split=False",
    "LoadDataRepeatParam": "repeat_time=1, repeat_stride=0, repeat_mode=0",
    "DataCopyPadExtParams": "dtype, is_pad=False, left_padding=0, right_padding=0, padding_value=0",
    "AippParams": "dtype, padding_params=asc.AippPaddingParams(), swap_params=asc.AippSwapParams(), "
                  "single_line_params=asc.AippSingleLineParams(), dtc_params=asc.AippDataTypeConvParams(), "
                  "c_padding_params=asc.AippChannelPaddingParams(), csc_params=asc.AippColorSpaceConvParams()",
    "SliceInfo": "start_index=0, end_index=None, stride=0, burst_len=None, shape_value=0",
    "MmadParams": "m=0, n=0, k=0, is_bias=None, fm_offset=None, en_ssparse=None, en_winograd_a=None, "
                  "en_winograd_b=None, unit_flag=None, cmatrix_source=None, cmatrix_init_val=None",
    "Nd2NzParams": "nd_num, n_value, d_value, src_nd_matrix_stride, src_d_value, dst_nz_c0_stride, "
                   "dst_nz_n_stride, dst_nz_matrix_stride",
    "Nz2NdParamsFull": "nd_num, n_value, d_value, src_nd_matrix_stride, src_n_stride, dst_d_stride, "
                       "dst_nd_matrix_stride",
    "DataCopyCO12DstParams": "n_size, m_size, dst_stride, src_stride, quant_pre=QuantModes.NoQuant, relu_pre=0, "
                             "channel_split=False, nz2nd_en=False",
    "MrgSort4Info": "element_lengths, if_exhausted_suspension=False, valid_bit=15, repeat_times=1",
    "VdeqInfo": "scale, offset, sign_mode",
    "FixpipeConfig": "layout",
    "InitConstValueParams": "repeat_times=0, block_num=0, dst_gap=0, init_value=0",
    "LoadData3DParamsV2Pro": "channel_size=0, en_transpose=False, en_small_k=False, filter_size_w=False, "
                             "filter_size_h=False, f_matrix_ctrl=False, ext_config=0, filter_config=1103823438081",
    # (upstream's LoadData3DParamsV2 has no en_small_k; pyasc takes it after upstream's, with the dtype keyword)
    "LoadData3DParamsV1": "pad_list=(0, 0, 0, 0), l1_h=1, l1_w=1, c1_index=0, fetch_filter_w=0, fetch_filter_h=0, "
                          "left_top_w=0, left_top_h=0, stride_w=1, stride_h=1, filter_w=1, filter_h=1, "
                          "dilation_filter_w=1, dilation_filter_h=1, jump_stride=1, repeat_mode=0, repeat_time=1, "
                          "c_size=0, pad_value=0, *, dtype=None",
}


def _params(cls: type) -> str:
    def one(p: inspect.Parameter) -> str:
        if p.default is inspect.Parameter.empty:
            return p.name
        d = p.default
        text = (f"{type(d).__name__}.{d.name}" if isinstance(d, enum.Enum)
                else f"asc.{d.name}()" if type(d).__name__ == "_Default" else repr(d))
        return f"{p.name}={text}"

    parts = []
    for p in inspect.signature(cls).parameters.values():
        if p.kind == p.KEYWORD_ONLY and "*" not in parts:
            parts.append("*")
        parts.append(one(p))
    return ", ".join(parts)


@pytest.mark.parametrize("name", sorted(UPSTREAM))
def test_upstream_signatures(name: str) -> None:
    assert _params(STRUCTS[name]) == UPSTREAM[name]


def test_other_signatures_are_the_fields_in_order() -> None:
    for name, cls in STRUCTS.items():
        if name in UPSTREAM or name == "LoadData3DParamsV2":
            continue
        names = [p for p in inspect.signature(cls).parameters if p != "dtype"]
        assert names == [f[0] for f in TABLE[name]["fields"]], name


def test_none_defaults_and_required_arguments() -> None:
    s = asc.SliceInfo(end_index=None)
    assert (s.end_index, s.burst_len) == (31, 32)  # ONE_BLK_SIZE - 1, ONE_BLK_SIZE
    m = asc.MmadParams(16, 16, 32, is_bias=True)
    assert m.values()[:5] == (16, 16, 32, True, 0) and m.cmatrix_init_val is True
    with pytest.raises(TypeError, match="missing a required argument: 'n_value'"):
        asc.Nd2NzParams(1)
    with pytest.raises(TypeError, match="dst_blk_stride must be an integer"):
        asc.BinaryRepeatParams(None)  # (None is a default only where upstream's is None)
    assert asc.LoadDataRepeatParam(2, 3).values() == (3, 2, 0)  # upstream's order; the table's is the C++'s
    f = asc.FixpipeParamsV220(16, 32, 2, 4, relu_en=True)
    assert f.relu_en is True and f.values()[4] is True  # fifth in the C++ constructor


# ---------------------------------------------------------------------------
# templates, arrays, ShapeInfo
# ---------------------------------------------------------------------------

def test_template_argument() -> None:
    assert asc.DataCopyPadExtParams(asc.int16, padding_value=-3).dtype == asc.int16
    assert asc.InitConstValueParams(init_value=2.5).dtype == asc.float32
    assert asc.InitConstValueParams(init_value=np.float16(1)).dtype == asc.float16
    assert asc.InitConstValueParams().dtype == asc.int32
    assert asc.LoadData3DParamsV1().dtype == asc.float16  # the table's default
    assert asc.LoadData3DParamsV1(dtype=asc.int8).ir_name() == "LoadData3DParamsV1<int8>"
    a = asc.AippParams(asc.float16, padding_params=asc.AippPaddingParams(padding_value_ch0=1.5))
    assert a.padding_params.dtype == asc.float16 and a.c_padding_params.dtype == asc.float16
    with pytest.raises(TypeError, match="must be one of asc.int8, asc.float16"):
        asc.AippParams(asc.int32)
    with pytest.raises(TypeError, match="is an asc.AippPaddingParams of asc.int8"):
        asc.AippParams(asc.float16, padding_params=asc.AippPaddingParams(dtype=asc.int8))
    with pytest.raises(ValueError, match=r"padding_value = 300 is out of range \[-128, 127\]"):
        asc.DataCopyPadExtParams(asc.int8, padding_value=300)
    with pytest.raises(TypeError, match="the data type T must be an asc data type"):
        asc.DataCopyPadExtParams(5)


def test_array_fields() -> None:
    m = asc.MrgSort4Info([1, 2, 3, 4])
    assert isinstance(m.element_lengths, FieldArray) and m.element_lengths == [1, 2, 3, 4]
    assert (m.element_lengths[-1], len(m.element_lengths), list(m.element_lengths[1:3])) == (4, 4, [2, 3])
    with pytest.raises(IndexError, match="index 4 is out of range for its 4 elements"):
        m.element_lengths[4]
    with pytest.raises(ValueError, match=r"element_lengths\[2\] = 70000 is out of range"):
        asc.MrgSort4Info([1, 2, 70000, 4])
    with pytest.raises(TypeError, match="element_lengths must be a list or tuple of 4 values of uint16"):
        asc.MrgSort4Info(5)
    v = asc.VdeqInfo([0.5] * 16, list(range(16)), [True, False] * 8)
    assert v.offset[15] == 15 and v.sign_mode[1] is False
    assert asc.LoadData3DParamsV1().pad_list == [0, 0, 0, 0]


def test_shape_info_on_the_host() -> None:
    s = asc.ShapeInfo([4, 8], data_format=asc.DataFormat.NZ)
    assert (s.shape_dim, s.shape(1), s.original_shape_dim, s.original_shape(0)) == (2, 8, 2, 4)
    assert s.field("shape") == [4, 8, 0, 0, 0, 0, 0, 0] and s.data_format == asc.DataFormat.NZ
    assert asc.ShapeInfo().values()[0] == 0 and asc.get_shape_size(s) == 32
    assert asc.ShapeInfo([2, 3], [6]).original_shape_dim == 1


@asc.jit
def _shape_info_kernel(out: asc.GlobalAddress, n: int, skip: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(out, 16)
    t = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 0, 64)
    t.set_shape_info(asc.ShapeInfo([n, 4, 2]))
    u = t  # (the same tensor value)
    for i in range(2):  # carried through a loop and into a device function with the tensor
        _store_shape(u, g, i)
    g.set_shape_info(asc.ShapeInfo(asc.array(asc.uint32, [n, n]), data_format=asc.DataFormat.NZ))
    r = g.get_shape_info()
    g.set_value(4, r.data_format)
    g.set_value(5, asc.get_shape_size(r))
    g.set_value(6, r.shape(skip))
    v = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 256, 64)
    if skip > 1:
        g.set_value(7, v.get_shape_info().shape_dim)  # never set: a KernelError


@asc.jit
def _store_shape(t: asc.LocalTensor, g: asc.GlobalTensor, i: int):
    s = t.get_shape_info()
    g.set_value(i, asc.get_shape_size(s))
    g.set_value(2 + i, s.shape(i))


def test_shape_info_of_tensors_on_the_simulator() -> None:
    out = np.zeros(16, np.int32)
    _shape_info_kernel[1](out, 3, 1)
    assert out[:7].tolist() == [24, 24, 3, 4, int(asc.DataFormat.NZ), 9, 3]
    with pytest.raises(asc.KernelError, match="no ShapeInfo was set on this tensor"):
        _shape_info_kernel[1](out, 3, 2)


@asc.jit
def _shape_info_maybe_set(out: asc.GlobalAddress, set_it: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(out)
    t = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 0, 64)
    if set_it:
        t.set_shape_info(asc.ShapeInfo([5, 7]))
    g.set_value(0, asc.get_shape_size(t.get_shape_info()))


def test_shape_info_is_not_left_over_from_an_earlier_launch() -> None:
    """A launch's registers start zeroed: what an earlier launch of the same kernel set is not seen."""
    out = np.zeros(8, np.int32)
    _shape_info_maybe_set[1](out, 1)
    assert out[0] == 35
    with pytest.raises(asc.KernelError, match="no ShapeInfo was set on this tensor"):
        _shape_info_maybe_set[1](out, 0)
    with pytest.raises(asc.KernelError, match="no ShapeInfo was set on this tensor"):
        _shape_info_maybe_set[4](np.zeros(8, np.int32), 0)  # (blocks after another on one worker too)
    cpp = next(iter(_shape_info_kernel.cache.values())).ascendc(line_comments=False)
    assert ".SetShapeInfo(AscendC::ShapeInfo(3, shape, 3, originalShape, AscendC::DataFormat::ND))" in cpp
    assert "AscendC::ShapeInfo s = t.GetShapeInfo();" in cpp and "AscendC::GetShapeSize(" in cpp
    assert "s.shape[i]" in cpp


@asc.jit
def _shape_info_of_views(out: asc.GlobalAddress, n: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(out, 16)
    g.set_shape_info(asc.ShapeInfo([n, 2]))
    t = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 0, 64)
    t.set_shape_info(asc.ShapeInfo([n, 5]))
    h = g[8:]
    v = t[16:]
    g.set_value(0, asc.get_shape_size(h.get_shape_info()))
    g.set_value(1, asc.get_shape_size(v.get_shape_info()))


def test_a_view_carries_its_tensors_shape_info() -> None:
    """The devkit's operator[] copies the tensor (`result = *this`), shape info included."""
    out = np.zeros(16, np.int32)
    _shape_info_of_views[1](out, 3)
    assert out[:2].tolist() == [6, 15]


@asc.jit
def _runtime_index(out: asc.GlobalAddress, i: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(out, 4)
    m = asc.MrgSort4Info([5, 6, 7, 8])
    g.set_value(0, m.element_lengths[i])


def test_a_runtime_index_outside_the_array_is_a_kernel_error() -> None:
    out = np.zeros(4, np.int32)
    _runtime_index[1](out, 2)
    assert out[0] == 7
    with pytest.raises(asc.KernelError, match=r"index 4 is out of the bounds of MrgSort4Info.element_lengths\[4\]"):
        _runtime_index[1](out, 4)
    with pytest.raises(asc.KernelError, match="out of the bounds"):
        _runtime_index[1](out, -1)


def test_a_set_shape_info_of_no_shape_info_is_a_compile_error() -> None:
    @asc.jit
    def k(out: asc.GlobalAddress):
        t = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 0, 64)
        t.set_shape_info(asc.MrgSort4Info([1, 2, 3, 4]))

    with pytest.raises(asc.CompileError, match="takes an asc.ShapeInfo, got") as info:
        k[1](np.zeros(1, np.int32))
    assert info.value.hint.startswith("hint: ")


# ---------------------------------------------------------------------------
# the IR of array fields and templates
# ---------------------------------------------------------------------------

_IR = """
module @m {{
  "func.func"() ({{
  ^bb0(%n: i32):
    %c0 = "arith.constant"() {{value = 0 : i32}} : () -> i32
    %c4 = "arith.constant"() {{value = 4 : i32}} : () -> i32
    %t = "arith.constant"() {{value = 1 : i1}} : () -> i1
    %h = "arith.constant"() {{value = 1.5 : f16}} : () -> f16
    {line}
    "func.return"() : () -> ()
  }}) {{sym_name = "m", kernel = 1 : i64, res_types = []}} : () -> ()
}}
"""
_M4 = ('%s = "asc.struct"(%c0, %c0, %c0, %c0, %t, %c0, %c0) : (i32, i32, i32, i32, i1, i32, i32) -> '
       '!asc.struct<MrgSort4Info>')


@pytest.mark.parametrize("line,match", [
    ('%s = "asc.struct"(%c0, %t, %c0, %c0) : (i32, i1, i32, i32) -> !asc.struct<MrgSort4Info>',
     r"MrgSort4Info takes 7 values \(one per field, an array field one per element\), got 4"),
    (_M4 + '\n    %x = "asc.struct.get"(%s) {field = "element_lengths"} : (!asc.struct<MrgSort4Info>) -> ui16',
     "field element_lengths is an array of 4: give the element's index"),
    (_M4 + '\n    %x = "asc.struct.get"(%s, %c4) {field = "element_lengths"} : (!asc.struct<MrgSort4Info>, i32) -> ui16',
     r"index 4 is out of the bounds of element_lengths\[4\]"),
    (_M4 + '\n    %x = "asc.struct.get"(%s, %c0) {field = "valid_bit"} : (!asc.struct<MrgSort4Info>, i32) -> ui16',
     "field valid_bit is no array: it takes no index"),
    (_M4 + '\n    %x = "asc.struct.set"(%s, %c0, %c4) {field = "element_lengths"} : '
           '(!asc.struct<MrgSort4Info>, i32, i32) -> !asc.struct<MrgSort4Info>',
     r"index 4 is out of the bounds"),
    ('%s = "asc.struct"(%t, %c0, %c0, %c0) : (i1, i32, i32, i32) -> !asc.struct<DataCopyPadExtParams>',
     "expected '<' and the template argument of the struct"),
    ('%s = "asc.struct"(%t, %c0, %c0, %c0) : (i1, i32, i32, i32) -> !asc.struct<AippChannelPaddingParams<f32>>',
     r"'f32' is not a template argument of AippChannelPaddingParams \(it takes i8,f16\)"),
    ('%s = "asc.struct"(%c0) : (i32) -> !asc.struct<DataCopyPadExtParams<index>>',
     "is not a template argument of DataCopyPadExtParams"),
])
def test_verifier_and_parser_reject_malformed_struct_ir(line: str, match: str) -> None:
    with pytest.raises(_C.IRError, match=match):
        _C.Module.parse(_IR.format(line=line), "bad.ascir").verify()


def test_template_instance_ir_round_trips() -> None:
    line = ('%s = "asc.struct"(%t, %c0, %c0, %h) : (i1, i32, i32, f16) -> !asc.struct<DataCopyPadExtParams<f16>>\n'
            '    %x = "asc.struct.get"(%s) {field = "padding_value"} : (!asc.struct<DataCopyPadExtParams<f16>>) -> f16')
    module = _C.Module.parse(_IR.format(line=line), "t.ascir")
    module.verify()
    text = module.print()
    assert "!asc.struct<DataCopyPadExtParams<f16>>" in text and _C.Module.parse(text, "u.ascir").print() == text
    assert "AscendC::DataCopyPadExtParams<half>(true, 0, 0, half(1.5f))" in module.emit_ascendc(line_comments=False)
    with pytest.raises(_C.IRError, match="the result must have the field's type"):
        _C.Module.parse(_IR.format(line=line.replace("-> f16", "-> f32")), "v.ascir").verify()


def test_constants_must_fit_array_elements() -> None:
    line = ('%big = "arith.constant"() {value = 70000 : i32} : () -> i32\n'
            '    %s = "asc.struct"(%c0, %big, %c0, %c0, %t, %c0, %c0) : (i32, i32, i32, i32, i1, i32, i32) -> '
            '!asc.struct<MrgSort4Info>')
    module = _C.Module.parse(_IR.format(line=line), "c.ascir")
    module.verify()
    with pytest.raises(_C.IRError, match=r"element_lengths\[1\] = 70000 does not fit the uint16_t field"):
        module.emit_ascendc()
