"""Every misuse of the kernel API is an asc.CompileError at the user's line,
never an internal exception: wrong argument kinds and counts for every
function, class and method of the API, unknown keywords, calls of things
that are not callable, attributes that do not exist, subscripts of things
that cannot be subscripted, API objects used as numbers, operators between
incompatible values, misuse of `range` and of device functions.

The cases are generated: each API has a valid call (compiled once by
`test_valid_calls_compile`, so that a misuse is the only thing wrong in its
kernel) whose arguments are replaced one at a time by values of every kind
the parameter does not take. All kernels of this file are written into one
generated module (a file, so that errors can quote its lines); each test
compiles one of them (compile only: nothing is launched past the error).
"""

from __future__ import annotations

import atexit
import importlib.util
import linecache
import os
import re
import shutil
import sys
import tempfile
import warnings
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np
import pytest

import asc
from asc.codegen import function_visitor
from asc.language import __all__ as LANGUAGE_API


@pytest.fixture(autouse=True)
def _small_compile_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """The statement budget of a compilation lowered from 500,000, so that the case that unrolls
    too far fails fast."""
    monkeypatch.setattr(function_visitor, "MAX_COMPILED_STATEMENTS", 20_000)

# ---------------------------------------------------------------------------
# values of every kind, by the names the cases use
# ---------------------------------------------------------------------------

# The kernel every case runs in: x is a float32 array, n an int, f a float. Its local tensors come from the
# TPipe: a kernel does not mix the TPipe with tensors placed by address (静态Tensor编程.md; test_hw_rules.py).
PRELUDE = """\
    g = asc.GlobalTensor()
    g.set_global_buffer(x)
    e = asc.GlobalTensor()
    pipe = asc.TPipe()
    q = asc.TQue(asc.TPosition.VECIN, 1)
    b = asc.TBuf(asc.TPosition.VECCALC)
    lt = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(lt, 1024)
    t = lt.get_with_offset(64, 0, asc.float32)
    u = lt.get_with_offset(64, 256, asc.float32)
    h = lt.get_with_offset(64, 512, asc.float16)
    s = asc.get_block_idx()
    am = asc.LocalMemAllocator()
    td = asc.TensorDesc()
    ld = asc.ListTensorDesc()
"""

# The kernel of the valid calls that place tensors by address (STATIC_APIS): no TPipe.
STATIC_PRELUDE = """\
    g = asc.GlobalTensor()
    g.set_global_buffer(x)
    e = asc.GlobalTensor()
    t = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 0, 64)
    u = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 256, 64)
    h = asc.LocalTensor(asc.float16, asc.TPosition.VECCALC, 512, 64)
    s = asc.get_block_idx()
    am = asc.LocalMemAllocator()
    td = asc.TensorDesc()
    ld = asc.ListTensorDesc()
"""
STATIC_APIS = ("asc.LocalTensor({dtype}, {pos}, {addr}, {tile_size})", "am.alloc(")

# family: matmul (mmapi): the Matmul object the Matmul.* cases call
MATMUL_PRELUDE = """\
    mm = asc.adv.Matmul(a=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.int8),
                        b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.int8),
                        c=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float16))
"""

VALUES: Dict[str, str] = {
    "int": "5", "zero": "0", "negative": "-1", "huge": "2**70", "bool": "True", "float": "2.5", "inf": "1e308 * 10",
    "none": "None", "str": "'VECIN'", "tuple": "(1, 2)", "list": "[1, 2]", "address": "x", "gtensor": "g",
    "gtensor_empty": "e", "ltensor": "t", "rint": "n", "rfloat": "f", "rint64": "s", "tpipe": "pipe", "tque": "q",
    "tbuf": "b", "dtype": "asc.float32", "tposition": "asc.TPosition.VECIN", "hardevent": "asc.HardEvent.MTE2_V",
    "pipeid": "asc.PipeID.PIPE_V", "roundmode": "asc.RoundMode.CAST_NONE", "module": "asc", "function": "asc.add",
    "class": "asc.TPipe", "range": "range", "rparams": "asc.UnaryRepeatParams()",
}

_NUMBERS = {"int", "zero", "negative", "float", "inf", "rint", "rfloat", "rint64", "huge", "bool"}
# parameter kind -> the value kinds it takes, or whose result depends on more than the kind (never a misuse
# case: a negative count compiles, what it does is the simulator's business)
ACCEPTS: Dict[str, set] = {
    "local": {"ltensor"},
    "gtensor": {"gtensor"},
    "copy_src": {"gtensor", "ltensor"},
    "view_index": {"int", "zero", "negative", "rint", "rint64", "none"},
    "address": {"address"},
    "count": {"int", "zero", "negative", "rint", "rint64"},
    "optional_count": {"int", "zero", "negative", "rint", "rint64", "none"},
    "scalar": _NUMBERS,
    # (shift amounts: constants out of [0, bits] are misuses too; a runtime value is checked when it runs)
    "shift": {"int", "zero", "rint", "rint64", "rfloat", "bool"},
    "value": _NUMBERS,
    "index": {"int", "zero", "negative", "rint", "rint64"},
    "dtype": {"dtype"},
    # family ubplan: LocalTensorAuto's shape, positive: a number or a tuple/list of them; a runtime int
    # (placed when the kernel runs)
    "auto_shape": {"int", "tuple", "list", "rint", "rint64"},
    "tposition": {"tposition", "int", "zero"},
    "hardevent": {"hardevent", "int", "zero"},
    "pipeid": {"pipeid", "int", "zero"},
    "roundmode": {"roundmode", "int", "zero"},
    "cmpmode": {"int", "zero"},  # (0 is CMPMODE.LT, 5 CMPMODE.NE)
    "depth": {"int", "zero", "none"},  # (TQue: 0 is a queue of depth 0, None upstream's default, 1)
    "optional_tposition": {"tposition", "int", "zero", "none"},  # (TBuf: None is the devkit's LCM)
    "buf_id_size": {"int"},
    "file_name": {"str"},  # (a compile-time string; 'VECIN' is a file name too)
    "cachemode": {"zero"},  # (an int is a member's value: 0 is CACHE_MODE_DISABLE, 5 none)
    "cacherwmode": set(),  # (READ, WRITE, RW are 1, 2, 3: neither 0 nor 5)
    "hardware": {"int"},  # (an int is a member's value: 5 is Hardware.L0C; 0 is GM, refused)
    "stride": {"int", "zero", "rint", "rint64"},
    # family: adv normquant: an asc.adv.RmsNormTiling (none of VALUES), int8 / uint8 tensors (VALUES has float ones),
    # quant's scale (a number or a LocalTensor) and offset (a number; a LocalTensor needs a scale tensor)
    "adv_tiling": set(),
    "adv_i8_local": set(),
    "adv_u8_local": {"none"},
    "adv_quant_scale": (_NUMBERS - {"bool"}) | {"ltensor"},
    "adv_quant_offset": _NUMBERS - {"bool"},
    "adv_flag": {"bool"},
    "mask_word": {"int", "zero", "rint", "rint64"},  # (a uint64: -1 and 2**70 do not fit)
    # cmpsel family: a level-0 mask (an int, or a list/tuple of two uint64), the enums by value (0 is a
    # member, 5 none), BinaryRepeatParams (no value of VALUES is one)
    "l0_mask": {"int", "zero", "rint", "rint64", "list", "tuple"},
    "selmode": {"zero"},
    "selmode_scalar": set(),  # (a scalar src1 takes VSEL_TENSOR_SCALAR_MODE, 1, alone)
    "reduceorder": {"zero"},
    "bparams": set(),
    "uparams": {"rparams"},
    "maskmode": {"zero"},  # (0 is MaskMode.NORMAL, 5 no member)
    # core helpers (test_core_helpers.py has their semantics)
    "integer": {"int", "zero", "negative", "huge", "rint", "rint64"},
    "divisor": {"int", "negative", "rint", "rint64"},
    "property": set(),
    "condition": {"bool"},
    # family: adv math: count (None: src.get_size(); a negative constant is refused), temp_buffer (a uint8
    # tensor or None), Exp's taylor_expand_level (a compile-time int)
    "adv_count": {"int", "zero", "rint", "rint64", "none"},
    "adv_tmp": {"ltensor", "none"},
    "adv_level": {"int", "zero"},
    "array_values": {"int", "tuple", "list"},
    "buffer": {"tque", "tbuf"},
    "shape_info": set(),  # (an asc.ShapeInfo, which no value of VALUES is)
    # sort family
    "sort_list": set(),  # (an asc.MrgSortSrcList, which no value of VALUES is)
    "four_counts": set(),  # (a list of exactly 4 integers)
    "valid_bit": {"rint", "rint64"},  # (a constant must be 3, 7 or 15)
    # family debug
    "any_tensor": {"gtensor", "ltensor"},
    "u32": {"int", "zero", "rint", "rint64"},  # (a uint32_t: -1, 2**70 and bools are refused)
    "printf_format": set(),  # (any other str does not match the one argument)
    # (for %d; an enum member prints its value)
    "printf_int": {"int", "zero", "negative", "bool", "rint", "rint64", "tposition", "hardevent", "pipeid", "roundmode"},
    "optional_shape_info": {"none"},
    "aippinputformat": set(),  # (0 is YUV420SP_U8, which needs src1; 5 no member)
    "aipp_params": set(),  # (an asc.AippParams, which no value of VALUES is)
    # quant family: bilinear_interpolation's mask, continuous (an integer) or bit ([mask0, mask1])
    "bilinear_mask": {"int", "zero", "rint", "rint64", "tuple", "list"},
    # family gather: a parameter struct of the call's own class (asc.UnaryRepeatParams() is another;
    # the valid values have no ", ", which the arity cases split the arguments at);
    # GatherMask's built-in pattern is 1 to 7 (its pattern tensor is uint16/uint32, t is float32)
    "param_struct": set(),
    "gm_pattern": {"int", "rint", "rint64"},
    # data movement family: structs no value of VALUES is; Copy's mask (a list or tuple of two words is a
    # bit mask); the pad value (a number or scalar of any type); enums (AtomicDtype: 0 and 5 are members)
    "copy_params": set(),
    "pad_params": set(),
    "copy_repeat_params": set(),
    "copy_mask": {"int", "zero", "rint", "rint64", "list", "tuple"},
    "repeat_time": {"int", "zero", "rint", "rint64"},
    "pad_value": {"int", "zero", "negative", "float", "inf", "rint", "rfloat", "rint64"},
    "pad_pos": {"tposition"},
    "atomicdtype": {"int", "zero"},
    "atomicop": {"zero"},
    "tensor_desc": set(),  # family listtensor (an asc.TensorDesc, which no value of VALUES is)
    # family slice: a list of asc.SliceInfo (no value of VALUES is one); dim_value a uint32 at most the
    # lists' length (1 here: 5 and 0 are refused, a runtime value is checked at run time); the HCCL
    # context index, a compile-time uint32 (the template argument)
    "slice_list": set(),
    "slice_dim": {"rint", "rint64"},
    "hccl_index": {"int", "zero"},
    # family: cores: a cross-core flag id (0..15 or a runtime value), its mode (a template argument: 0, 1, 2)
    # and pipe (not PIPE_S, not PIPE_ALL)
    "core_flag_id": {"int", "zero", "rint", "rint64"},
    "core_mode": {"zero"},
    "core_pipe": {"pipeid", "int"},
    # family: matmul (mmapi): a uint64 (a runtime int converts), a bool flag (or a runtime integer), HF32's
    # trans mode (0 or 1, or a runtime value), callback data (a uint64 or an address), a float16 LocalTensor
    "mm_u64": {"int", "zero", "rint", "rint64"},
    "mm_flag": {"bool", "rint", "rint64"},
    "mm_mode": {"zero", "rint", "rint64"},
    "mm_data": {"int", "zero", "negative", "rint", "rint64", "address"},
    "mm_c_local": set(),  # (t is float32: C is float16)
    # family: matmul (mmlocal): an L1 LocalTensor of int8 (A) / int32 (bias), a CO1 LocalTensor of int32 (or None)
    "mm_l1": set(),
    "mm_local_c": {"none"},
    # family: cube: a bool register flag (a Python int is taken as its truth value, a runtime integer too);
    # the 3-D load's padding value (an 8-, 16- or 32-bit number: not int64); a struct no value of VALUES is
    "cube_flag": {"bool", "int", "zero", "negative", "huge", "rint", "rint64"},
    "cube_pad_value": _NUMBERS - {"huge", "rint64", "bool"},
    "cube_struct": set(),
    # family: adv softmax: an asc.adv.SoftmaxTiling (no value of VALUES is one)
    "softmax_tiling": set(),
}

# a uint32 view of t (the indices of sort32 and sort; Gatherb's data: uint16 or uint32)
U32 = "t.reinterpret_cast(asc.uint32)"
# an int16 view of t (the bitwise and shift instructions take 16- or 32-bit integers)
I16 = "t.reinterpret_cast(asc.int16)"
# a uint8 view of t (the bit mask compare writes)
U8 = "t.reinterpret_cast(asc.uint8)"

# The API's valid calls: the call with `{name}` placeholders, and each parameter's (name, kind, valid value).
Param = Tuple[str, str, str]
API: Dict[str, Tuple[str, Sequence[Param]]] = {
    "add": ("asc.add({dst}, {src0}, {src1}, {count})",
            (("dst", "local", "t"), ("src0", "local", "t"), ("src1", "local", "u"), ("count", "count", "64"))),
    "sub": ("asc.sub({dst}, {src0}, {src1}, {count})",
            (("dst", "local", "t"), ("src0", "local", "t"), ("src1", "local", "u"), ("count", "count", "64"))),
    "mul": ("asc.mul({dst}, {src0}, {src1}, {count})",
            (("dst", "local", "t"), ("src0", "local", "t"), ("src1", "local", "u"), ("count", "count", "64"))),
    "div": ("asc.div({dst}, {src0}, {src1}, {count})",
            (("dst", "local", "t"), ("src0", "local", "t"), ("src1", "local", "u"), ("count", "count", "64"))),
    "max": ("asc.max({dst}, {src0}, {src1}, {count})",
            (("dst", "local", "t"), ("src0", "local", "t"), ("src1", "local", "u"), ("count", "count", "64"))),
    "min": ("asc.min({dst}, {src0}, {src1}, {count})",
            (("dst", "local", "t"), ("src0", "local", "t"), ("src1", "local", "u"), ("count", "count", "64"))),
    "adds": ("asc.adds({dst}, {src}, {scalar}, {count})",
             (("dst", "local", "t"), ("src", "local", "u"), ("scalar", "scalar", "1.5"), ("count", "count", "64"))),
    "muls": ("asc.muls({dst}, {src}, {scalar}, {count})",
             (("dst", "local", "t"), ("src", "local", "u"), ("scalar", "scalar", "1.5"), ("count", "count", "64"))),
    "maxs": ("asc.maxs({dst}, {src}, {scalar}, {count})",
             (("dst", "local", "t"), ("src", "local", "u"), ("scalar", "scalar", "1.5"), ("count", "count", "64"))),
    "mins": ("asc.mins({dst}, {src}, {scalar}, {count})",
             (("dst", "local", "t"), ("src", "local", "u"), ("scalar", "scalar", "1.5"), ("count", "count", "64"))),
    "relu": ("asc.relu({dst}, {src}, {count})", (("dst", "local", "t"), ("src", "local", "u"), ("count", "count", "64"))),
    "exp": ("asc.exp({dst}, {src}, {count})", (("dst", "local", "t"), ("src", "local", "u"), ("count", "count", "64"))),
    "ln": ("asc.ln({dst}, {src}, {count})", (("dst", "local", "t"), ("src", "local", "u"), ("count", "count", "64"))),
    "abs": ("asc.abs({dst}, {src}, {count})", (("dst", "local", "t"), ("src", "local", "u"), ("count", "count", "64"))),
    "sqrt": ("asc.sqrt({dst}, {src}, {count})", (("dst", "local", "t"), ("src", "local", "u"), ("count", "count", "64"))),
    "rsqrt": ("asc.rsqrt({dst}, {src}, {count})",
              (("dst", "local", "t"), ("src", "local", "u"), ("count", "count", "64"))),
    "reciprocal": ("asc.reciprocal({dst}, {src}, {count})",
                   (("dst", "local", "t"), ("src", "local", "u"), ("count", "count", "64"))),
    "duplicate": ("asc.duplicate({dst}, {scalar}, {count})",
                  (("dst", "local", "t"), ("scalar", "scalar", "1.5"), ("count", "count", "64"))),
    "add_relu": ("asc.add_relu({dst}, {src0}, {src1}, {count})",
                (("dst", "local", "t"), ("src0", "local", "t"), ("src1", "local", "u"), ("count", "count", "64"))),
    "sub_relu": ("asc.sub_relu({dst}, {src0}, {src1}, {count})",
                (("dst", "local", "t"), ("src0", "local", "t"), ("src1", "local", "u"), ("count", "count", "64"))),
    "fused_mul_add": ("asc.fused_mul_add({dst}, {src0}, {src1}, {count})",
                     (("dst", "local", "t"), ("src0", "local", "t"), ("src1", "local", "u"), ("count", "count", "64"))),
    "fused_mul_add_relu": ("asc.fused_mul_add_relu({dst}, {src0}, {src1}, {count})",
                          (("dst", "local", "t"), ("src0", "local", "t"), ("src1", "local", "u"), ("count", "count", "64"))),
    "mul_add_dst": ("asc.mul_add_dst({dst}, {src0}, {src1}, {count})",
                    (("dst", "local", "t"), ("src0", "local", "h"), ("src1", "local", "h"), ("count", "count", "64"))),
    "bitwise_and": ("asc.bitwise_and({dst}, {src0}, {src1}, {count})",
                   (("dst", "local", I16), ("src0", "local", I16), ("src1", "local", I16),
                    ("count", "count", "64"))),
    "bitwise_or": ("asc.bitwise_or({dst}, {src0}, {src1}, {count})",
                  (("dst", "local", I16), ("src0", "local", I16), ("src1", "local", I16),
                   ("count", "count", "64"))),
    "bitwise_not": ("asc.bitwise_not({dst}, {src}, {count})",
                    (("dst", "local", I16), ("src", "local", I16), ("count", "count", "64"))),
    "leaky_relu": ("asc.leaky_relu({dst}, {src}, {scalar}, {count})",
                   (("dst", "local", "t"), ("src", "local", "u"), ("scalar", "scalar", "0.5"), ("count", "count", "64"))),
    "shift_left": ("asc.shift_left({dst}, {src}, {scalar}, {count})",
                  (("dst", "local", I16), ("src", "local", I16), ("scalar", "shift", "3"),
                   ("count", "count", "64"))),
    "shift_right": ("asc.shift_right({dst}, {src}, {scalar}, {count})",
                   (("dst", "local", I16), ("src", "local", I16), ("scalar", "shift", "3"),
                    ("count", "count", "64"))),
    "axpy": ("asc.axpy({dst}, {src}, {scalar}, {count})",
             (("dst", "local", "t"), ("src", "local", "h"), ("scalar", "scalar", "1.5"), ("count", "count", "64"))),
    "reduce_max": ("asc.reduce_max({dst}, {src}, {shared_tmp_buffer}, {count}, {cal_index})",
                   (("dst", "local", "t"), ("src", "local", "u"), ("shared_tmp_buffer", "local", "t"),
                    ("count", "count", "64"), ("cal_index", "condition", "True"))),
    "reduce_min": ("asc.reduce_min({dst}, {src}, {shared_tmp_buffer}, {count}, {cal_index})",
                   (("dst", "local", "t"), ("src", "local", "u"), ("shared_tmp_buffer", "local", "t"),
                    ("count", "count", "64"), ("cal_index", "condition", "True"))),
    "reduce_sum": ("asc.reduce_sum({dst}, {src}, {shared_tmp_buffer}, {count})",
                   (("dst", "local", "t"), ("src", "local", "u"), ("shared_tmp_buffer", "local", "t"),
                    ("count", "count", "64"))),
    "compare": ("asc.compare({dst}, {src0}, {src1}, {cmp_mode}, {count})",
                (("dst", "local", U8), ("src0", "local", "u"), ("src1", "local", "u"),
                 ("cmp_mode", "cmpmode", "asc.CMPMODE.LT"), ("count", "count", "64"))),
    "compare_scalar": ("asc.compare_scalar({dst}, {src0}, {src1_scalar}, {cmp_mode}, {count})",
                       (("dst", "local", U8), ("src0", "local", "u"), ("src1_scalar", "scalar", "1.5"),
                        ("cmp_mode", "cmpmode", "asc.CMPMODE.GE"), ("count", "count", "64"))),
    # sort family
    "sort32": ("asc.sort32({dst}, {src0}, {src1}, {repeat_time})",
               (("dst", "local", "t"), ("src0", "local", "u"), ("src1", "local", U32), ("repeat_time", "count", "1"))),
    "sort": ("asc.sort({dst}, {concat}, {index}, {tmp}, {repeat_time}, {is_full_sort})",
             (("dst", "local", "t"), ("concat", "local", "u"), ("index", "local", U32), ("tmp", "local", "u"),
              ("repeat_time", "count", "1"), ("is_full_sort", "condition", "True"))),
    "mrg_sort": ("asc.mrg_sort({dst}, {sort_list}, {element_count_list}, {sorted_num}, {valid_bit}, {repeat_time}, "
                 "{is_exhausted_suspension})",
                 (("dst", "local", "t"), ("sort_list", "sort_list", "asc.MrgSortSrcList(asc.float32, u, u)"),
                  ("element_count_list", "four_counts", "[1, 1, 0, 0]"), ("sorted_num", "four_counts", "[0, 0, 0, 0]"),
                  ("valid_bit", "valid_bit", "3"), ("repeat_time", "count", "1"),
                  ("is_exhausted_suspension", "condition", "False"))),
    "get_mrg_sort_result": ("asc.get_mrg_sort_result()", ()),
    "get_sort_len": ("asc.get_sort_len({elem_count})", (("elem_count", "count", "64"),)),
    "get_sort_offset": ("asc.get_sort_offset({elem_offset})", (("elem_offset", "count", "64"),)),
    # cmpsel family
    "compare.l0": ("asc.compare({dst}, {src0}, {src1}, {cmp_mode}, {mask}, {repeat_times}, {repeat_params})",
                   (("dst", "local", U8), ("src0", "local", "u"), ("src1", "local", "u"),
                    ("cmp_mode", "cmpmode", "asc.CMPMODE.LT"), ("mask", "l0_mask", "64"),
                    ("repeat_times", "stride", "1"), ("repeat_params", "bparams", "asc.BinaryRepeatParams()"))),
    "compare.cmpmask": ("asc.compare({src0}, {src1}, {cmp_mode}, {mask}, {repeat_params})",
                        (("src0", "local", "u"), ("src1", "local", "u"), ("cmp_mode", "cmpmode", "asc.CMPMODE.GT"),
                         ("mask", "l0_mask", "64"), ("repeat_params", "bparams", "asc.BinaryRepeatParams()"))),
    "compare_scalar.l0": ("asc.compare_scalar({dst}, {src0}, {src1_scalar}, {cmp_mode}, {mask}, {repeat_times}, "
                          "{repeat_params})",
                          (("dst", "local", U8), ("src0", "local", "u"), ("src1_scalar", "scalar", "1.5"),
                           ("cmp_mode", "cmpmode", "asc.CMPMODE.LT"), ("mask", "l0_mask", "64"),
                           ("repeat_times", "stride", "1"), ("repeat_params", "uparams", "asc.UnaryRepeatParams()"))),
    "get_cmp_mask": ("asc.get_cmp_mask({dst})", (("dst", "local", "t"),)),
    "set_cmp_mask": ("asc.set_cmp_mask({src})", (("src", "local", "t"),)),
    "select": ("asc.select({dst}, {sel_mask}, {src0}, {src1}, {sel_mode}, {count})",
               (("dst", "local", "t"), ("sel_mask", "local", U8), ("src0", "local", "u"), ("src1", "local", "u"),
                ("sel_mode", "selmode", "asc.SelMode.VSEL_TENSOR_TENSOR_MODE"), ("count", "stride", "64"))),
    "select.l0": ("asc.select({dst}, {sel_mask}, {src0}, {src1}, {sel_mode}, {mask}, {repeat_times}, "
                  "{repeat_params})",
                  (("dst", "local", "t"), ("sel_mask", "local", U8), ("src0", "local", "u"), ("src1", "scalar", "1.5"),
                   ("sel_mode", "selmode_scalar", "asc.SelMode.VSEL_TENSOR_SCALAR_MODE"), ("mask", "l0_mask", "64"),
                   ("repeat_times", "stride", "1"), ("repeat_params", "bparams", "asc.BinaryRepeatParams()"))),
    "whole_reduce_max": ("asc.whole_reduce_max({dst}, {src}, {mask}, {repeat_time}, {dst_rep_stride}, "
                         "{src_blk_stride}, {src_rep_stride}, {order})",
                         (("dst", "local", "t"), ("src", "local", "u"), ("mask", "l0_mask", "64"),
                          ("repeat_time", "stride", "1"), ("dst_rep_stride", "stride", "1"),
                          ("src_blk_stride", "stride", "1"), ("src_rep_stride", "stride", "8"),
                          ("order", "reduceorder", "asc.ReduceOrder.ORDER_ONLY_VALUE"))),
    "whole_reduce_min": ("asc.whole_reduce_min({dst}, {src}, {mask}, {repeat_time}, {dst_rep_stride}, "
                         "{src_blk_stride}, {src_rep_stride})",
                         (("dst", "local", "t"), ("src", "local", "u"), ("mask", "l0_mask", "64"),
                          ("repeat_time", "stride", "1"), ("dst_rep_stride", "stride", "1"),
                          ("src_blk_stride", "stride", "1"), ("src_rep_stride", "stride", "8"))),
    "whole_reduce_sum": ("asc.whole_reduce_sum({dst}, {src}, {mask}, {repeat_time}, {dst_rep_stride}, "
                         "{src_blk_stride}, {src_rep_stride}, {is_set_mask})",
                         (("dst", "local", "t"), ("src", "local", "u"), ("mask", "l0_mask", "64"),
                          ("repeat_time", "stride", "1"), ("dst_rep_stride", "stride", "1"),
                          ("src_blk_stride", "stride", "1"), ("src_rep_stride", "stride", "8"),
                          ("is_set_mask", "condition", "True"))),
    "block_reduce_max": ("asc.block_reduce_max({dst}, {src}, {repeat}, {mask}, {dst_rep_stride}, {src_blk_stride}, "
                         "{src_rep_stride})",
                         (("dst", "local", "t"), ("src", "local", "u"), ("repeat", "stride", "1"),
                          ("mask", "l0_mask", "64"), ("dst_rep_stride", "stride", "1"),
                          ("src_blk_stride", "stride", "1"), ("src_rep_stride", "stride", "8"))),
    "block_reduce_min": ("asc.block_reduce_min({dst}, {src}, {repeat}, {mask}, {dst_rep_stride}, {src_blk_stride}, "
                         "{src_rep_stride})",
                         (("dst", "local", "t"), ("src", "local", "u"), ("repeat", "stride", "1"),
                          ("mask", "l0_mask", "64"), ("dst_rep_stride", "stride", "1"),
                          ("src_blk_stride", "stride", "1"), ("src_rep_stride", "stride", "8"))),
    "block_reduce_sum": ("asc.block_reduce_sum({dst}, {src}, {repeat}, {mask}, {dst_rep_stride}, {src_blk_stride}, "
                         "{src_rep_stride})",
                         (("dst", "local", "t"), ("src", "local", "u"), ("repeat", "stride", "1"),
                          ("mask", "l0_mask", "64"), ("dst_rep_stride", "stride", "1"),
                          ("src_blk_stride", "stride", "1"), ("src_rep_stride", "stride", "8"))),
    "pair_reduce_sum": ("asc.pair_reduce_sum({dst}, {src}, {repeat_time}, {mask}, {dst_rep_stride}, "
                        "{src_blk_stride}, {src_rep_stride})",
                        (("dst", "local", "t"), ("src", "local", "u"), ("repeat_time", "stride", "1"),
                         ("mask", "l0_mask", "64"), ("dst_rep_stride", "stride", "1"),
                         ("src_blk_stride", "stride", "1"), ("src_rep_stride", "stride", "8"))),
    "repeat_reduce_sum": ("asc.repeat_reduce_sum({dst}, {src}, {repeat_time}, {mask}, {dst_blk_stride}, "
                          "{src_blk_stride}, {dst_rep_stride}, {src_rep_stride})",
                          (("dst", "local", "t"), ("src", "local", "u"), ("repeat_time", "stride", "1"),
                           ("mask", "stride", "64"), ("dst_blk_stride", "stride", "1"),
                           ("src_blk_stride", "stride", "1"), ("dst_rep_stride", "stride", "1"),
                           ("src_rep_stride", "stride", "8"))),
    "reduce_sum.l0": ("asc.reduce_sum({dst}, {src}, {shared_tmp_buffer}, {mask}, {repeat_time}, {src_rep_stride})",
                      (("dst", "local", "t"), ("src", "local", "u"), ("shared_tmp_buffer", "local", "t"),
                       ("mask", "l0_mask", "64"), ("repeat_time", "stride", "1"), ("src_rep_stride", "stride", "8"))),
    # family gather: broadcast, gather, transposes (scatter: NOT_CALLED below)
    "brcb": ("asc.brcb({dst}, {src0}, {repeat_times}, {repeat_params})",
             (("dst", "local", "t"), ("src0", "local", "u"), ("repeat_times", "count", "1"),
              ("repeat_params", "param_struct", "asc.BrcbRepeatParams(1,8)"))),
    "gatherb": ("asc.gatherb({dst}, {src0}, {offset}, {repeat_times}, {repeat_params})",
                (("dst", "local", U32), ("src0", "local", "u.reinterpret_cast(asc.uint32)"),
                 ("offset", "local", "h.reinterpret_cast(asc.uint32)"), ("repeat_times", "count", "1"),
                 ("repeat_params", "param_struct", "asc.GatherRepeatParams(1,8)"))),
    "gather": ("asc.gather({dst}, {src}, {src_offset}, {src_base}, {count})",
               (("dst", "local", "t"), ("src", "local", "u"), ("src_offset", "local", "h.reinterpret_cast(asc.uint32)"),
                ("src_base", "count", "0"), ("count", "count", "8"))),
    "gather.level0": ("asc.gather({dst}, {src}, {src_offset}, {src_base}, {mask}, {repeat_times}, {dst_rep_stride})",
                      (("dst", "local", "t"), ("src", "local", "u"),
                       ("src_offset", "local", "h.reinterpret_cast(asc.uint32)"), ("src_base", "count", "0"),
                       ("mask", "l0_mask", "8"), ("repeat_times", "count", "1"), ("dst_rep_stride", "count", "8"))),
    "gather_mask": ("asc.gather_mask({dst}, {src0}, {src1_pattern}, {reduce_mode}, {mask}, {params})",
                    (("dst", "local", "t"), ("src0", "local", "u"), ("src1_pattern", "gm_pattern", "2"),
                     ("reduce_mode", "condition", "False"), ("mask", "count", "0"),
                     ("params", "param_struct", "asc.GatherMaskParams(1,1,8,0)"))),
    "get_gather_mask_remain_count": ("asc.get_gather_mask_remain_count()", ()),
    "transpose": ("asc.transpose({dst}, {src})", (("dst", "local", "h"), ("src", "local", "h"))),
    "transpose.ext": ("asc.transpose({dst}, {src}, {shared_tmp_buffer}, {params})",
                      (("dst", "local", "h"), ("src", "local", "h"), ("shared_tmp_buffer", "local", U8),
                       ("params", "param_struct",
                        "asc.TransposeParamsExt(1,16,2,8,asc.TransposeType.TRANSPOSE_NCHW2NHWC)"))),
    "trans_data_to_5hd": ("asc.trans_data_to_5hd({dst}, {src}, {params}, dtype=asc.float16)",
                          (("dst", "local", "t.reinterpret_cast(asc.uint64)"),
                           ("src", "local", "u.reinterpret_cast(asc.uint64)"),
                           ("params", "param_struct", "asc.TransDataTo5HDParams()"))),
    "cast": ("asc.cast({dst}, {src}, {round_mode}, {count})",
             (("dst", "local", "t"), ("src", "local", "h"), ("round_mode", "roundmode", "asc.RoundMode.CAST_NONE"),
              ("count", "count", "64"))),
    # quant family
    "set_deq_scale": ("asc.set_deq_scale({scale})", (("scale", "scalar", "0.5"),)),
    "cast_deq": ("asc.cast_deq({dst}, {src}, {count})",
                 (("dst", "local", "t.reinterpret_cast(asc.int8)"), ("src", "local", I16), ("count", "count", "64"))),
    "add_deq_relu": ("asc.add_deq_relu({dst}, {src0}, {src1}, {count})",
                     (("dst", "local", "h"), ("src0", "local", "t.reinterpret_cast(asc.int32)"),
                      ("src1", "local", "u.reinterpret_cast(asc.int32)"), ("count", "count", "64"))),
    "mul_cast": ("asc.mul_cast({dst}, {src0}, {src1}, {count})",
                 (("dst", "local", "t.reinterpret_cast(asc.int8)"), ("src0", "local", "h"), ("src1", "local", "h"),
                  ("count", "count", "64"))),
    "add_relu_cast": ("asc.add_relu_cast({dst}, {src0}, {src1}, {count})",
                      (("dst", "local", "h"), ("src0", "local", "t"), ("src1", "local", "u"), ("count", "count", "64"))),
    "sub_relu_cast": ("asc.sub_relu_cast({dst}, {src0}, {src1}, {count})",
                      (("dst", "local", "h"), ("src0", "local", "t"), ("src1", "local", "u"), ("count", "count", "64"))),
    "bilinear_interpolation": ("asc.bilinear_interpolation({dst}, {src0}, {src0_offset}, {src1}, {mask}, {h_repeat}, "
                               "{repeat_mode}, {dst_blk_stride}, {v_r_offset}, {v_repeat}, {shared_tmp_buffer})",
                               (("dst", "local", "h"), ("src0", "local", "h"),
                                ("src0_offset", "local", "t.reinterpret_cast(asc.uint32)"), ("src1", "local", "h"),
                                ("mask", "bilinear_mask", "128"), ("h_repeat", "count", "1"),
                                ("repeat_mode", "condition", "False"), ("dst_blk_stride", "stride", "1"),
                                ("v_r_offset", "stride", "128"), ("v_repeat", "count", "1"),
                                ("shared_tmp_buffer", "local", U8))),
    "data_copy": ("asc.data_copy({dst}, {src}, {count})",
                  (("dst", "local", "t"), ("src", "copy_src", "g"), ("count", "count", "64"))),
    # data movement family
    "data_copy_pad": ("asc.data_copy_pad({dst}, {src}, {data_copy_params}, {pad_params})",
                      (("dst", "local", "t"), ("src", "gtensor", "g"),
                       ("data_copy_params", "copy_params", "asc.DataCopyExtParams(1, 36, 0, 0, 0)"),
                       ("pad_params", "pad_params", "asc.DataCopyPadExtParams(asc.float32)"))),
    "copy": ("asc.copy({dst}, {src}, {mask}, {repeat_time}, {repeat_params})",
             (("dst", "local", "t"), ("src", "local", "u"), ("mask", "copy_mask", "64"),
              ("repeat_time", "repeat_time", "1"),
              ("repeat_params", "copy_repeat_params", "asc.CopyRepeatParams(dst_stride=1)"))),
    "set_pad_value": ("asc.set_pad_value({padding_value}, {pos})",
                      (("padding_value", "pad_value", "1.5"), ("pos", "pad_pos", "asc.TPosition.VECIN"))),
    "set_atomic_add": ("asc.set_atomic_add({dtype})", (("dtype", "dtype", "asc.float32"),)),
    "set_atomic_max": ("asc.set_atomic_max({dtype})", (("dtype", "dtype", "asc.float32"),)),
    "set_atomic_min": ("asc.set_atomic_min({dtype})", (("dtype", "dtype", "asc.float32"),)),
    "set_atomic_type": ("asc.set_atomic_type({dtype})", (("dtype", "dtype", "asc.float32"),)),
    "set_atomic_none": ("asc.set_atomic_none()", ()),
    "set_store_atomic_config": ("asc.set_store_atomic_config({atomic_type}, {atomic_op})",
                                (("atomic_type", "atomicdtype", "asc.AtomicDtype.ATOMIC_F16"),
                                 ("atomic_op", "atomicop", "asc.AtomicOp.ATOMIC_SUM"))),
    "get_store_atomic_config": ("y = asc.get_store_atomic_config()", ()),
    "set_flag": ("asc.set_flag({event}, {event_id})",
                 (("event", "hardevent", "asc.HardEvent.MTE2_V"), ("event_id", "count", "0"))),
    "wait_flag": ("asc.wait_flag({event}, {event_id})",
                  (("event", "hardevent", "asc.HardEvent.S_V"), ("event_id", "count", "0"))),
    "pipe_barrier": ("asc.pipe_barrier({pipe})", (("pipe", "pipeid", "asc.PipeID.PIPE_V"),)),
    "set_vector_mask": ("asc.set_vector_mask({mask_high}, {mask_low}, dtype={dtype}, mode={mode})",
                        (("mask_high", "mask_word", "0"), ("mask_low", "mask_word", "255"),
                         ("dtype", "dtype", "asc.float32"), ("mode", "maskmode", "asc.MaskMode.NORMAL"))),
    "set_mask_count": ("asc.set_mask_count()", ()),
    "set_mask_norm": ("asc.set_mask_norm()", ()),
    "reset_mask": ("asc.reset_mask()", ()),
    # ---- system family (the workspace-taking sync ops are in NOT_CALLED below)
    "sync_all": ("asc.sync_all()", ()),
    "data_sync_barrier": ("asc.data_sync_barrier(asc.MemDsbT.ALL)", ()),
    "data_cache_clean_and_invalid": ("asc.data_cache_clean_and_invalid(asc.CacheLine.SINGLE_CACHE_LINE, {dst})",
                                     (("dst", "gtensor", "g"),)),
    "get_icache_preload_status": ("asc.get_icache_preload_status()", ()),
    "icache_preload": ("asc.icache_preload({pre_fetch_len})", (("pre_fetch_len", "count", "64"),)),
    "init_soc_state": ("asc.init_soc_state()", ()),
    "get_sys_workspace": ("asc.get_sys_workspace()", ()),
    "set_sys_workspace": ("asc.set_sys_workspace({workspace})", (("workspace", "address", "x"),)),
    "check_local_memory_ia": ("asc.check_local_memory_ia(asc.CheckLocalMemoryIAParam())", ()),
    "get_arch_version": ("asc.get_arch_version({core_version})", (("core_version", "count", "0"),)),
    "get_data_block_size_in_bytes": ("asc.get_data_block_size_in_bytes()", ()),
    "get_program_counter": ("asc.get_program_counter()", ()),
    "get_sub_block_idx": ("asc.get_sub_block_idx()", ()),
    "get_sub_block_num": ("asc.get_sub_block_num()", ()),
    "get_system_cycle": ("asc.get_system_cycle()", ()),
    "get_task_ratio": ("asc.get_task_ratio()", ()),
    "scalar_count_leading_zero": ("asc.scalar_count_leading_zero({value_in})", (("value_in", "mask_word", "5"),)),
    "count_bits_cnt_same_as_sign_bit": ("asc.count_bits_cnt_same_as_sign_bit({value_in})",
                                        (("value_in", "count", "5"),)),
    "scalar_get_sff_value": ("asc.scalar_get_sff_value({value_in}, {count_value})",
                             (("value_in", "mask_word", "5"), ("count_value", "maskmode", "1"))),
    "scalar_get_count_of_value": ("asc.scalar_get_count_of_value({value_in}, {count_value})",
                                  (("value_in", "mask_word", "5"), ("count_value", "maskmode", "1"))),
    "scalar_cast": ("asc.scalar_cast({value_in}, asc.int32, asc.RoundMode.CAST_RINT)",
                    (("value_in", "scalar", "1.5"),)),
    "get_block_idx": ("asc.get_block_idx()", ()),
    "get_block_num": ("asc.get_block_num()", ()),
    "GlobalTensor": ("asc.GlobalTensor()", ()),
    "LocalTensor": ("asc.LocalTensor({dtype}, {pos}, {addr}, {tile_size})",
                    (("dtype", "dtype", "asc.float16"), ("pos", "tposition", "asc.TPosition.VECOUT"),
                     ("addr", "count", "512"), ("tile_size", "count", "64"))),
    # (the prelude made the kernel's one TPipe: a second is the misuse "a second TPipe" below)
    "TPipe": ("y = asc.TPipe", ()),
    "get_tpipe_ptr": ("asc.get_tpipe_ptr()", ()),
    "TQueBind": ("asc.TQueBind({src}, {dst}, {depth})",
                 (("src", "tposition", "asc.TPosition.VECIN"), ("dst", "tposition", "asc.TPosition.VECOUT"),
                  ("depth", "depth", "2"))),
    "TBufPool": ("asc.TBufPool({pos}, {buf_id_size})",
                 (("pos", "tposition", "asc.TPosition.VECCALC"), ("buf_id_size", "buf_id_size", "4"))),
    "LocalMemAllocator": ("asc.LocalMemAllocator({hard})", (("hard", "hardware", "asc.Hardware.UB"),)),
    "MrgSortSrcList": ("asc.MrgSortSrcList({dtype}, {src1}, {src2})",
                       (("dtype", "dtype", "asc.float32"), ("src1", "local", "t"), ("src2", "local", "u"))),
    "TQue": ("asc.TQue({pos}, {depth})", (("pos", "tposition", "asc.TPosition.VECOUT"), ("depth", "depth", "2"))),
    "TBuf": ("asc.TBuf({pos})", (("pos", "optional_tposition", "asc.TPosition.VECCALC"),)),
    # family ubplan
    "LocalTensorAuto": ("y = asc.LocalTensorAuto({dtype}, {shape})",
                        (("dtype", "dtype", "asc.float32"), ("shape", "auto_shape", "64"))),
    # family: adv sort
    "adv.concat": ("asc.adv.concat({dst}, {src}, {tmp}, {repeat_time})",
                   (("dst", "local", "t"), ("src", "local", "u"), ("tmp", "local", "u"), ("repeat_time", "count", "1"))),
    "adv.extract": ("asc.adv.extract({dst_value}, {dst_index}, {src}, {repeat_time})",
                    (("dst_value", "local", "t"), ("dst_index", "local", U32), ("src", "local", "u"),
                     ("repeat_time", "count", "1"))),
    "BinaryRepeatParams": ("asc.BinaryRepeatParams({a}, 1, 1, {b}, 8, 8)",
                           (("a", "stride", "1"), ("b", "stride", "8"))),
    "UnaryRepeatParams": ("asc.UnaryRepeatParams({a}, 1, {b}, 8)", (("a", "stride", "1"), ("b", "stride", "8"))),
    "float32": ("asc.float32({value})", (("value", "value", "n"),)),
    "int16": ("asc.int16({value})", (("value", "value", "f"),)),
    # methods
    "GlobalTensor.set_global_buffer": ("e.set_global_buffer({buffer}, {buffer_size})",
                                       (("buffer", "address", "x"), ("buffer_size", "optional_count", "64"))),
    "GlobalTensor.get_value": ("g.get_value({index})", (("index", "index", "3"),)),
    "GlobalTensor.set_value": ("g.set_value({index}, {value})",
                               (("index", "index", "3"), ("value", "value", "1.5"))),
    "GlobalTensor.view": ("g[{index}:]", (("index", "view_index", "8"),)),
    "GlobalTensor.call": ("g({index})", (("index", "index", "8"),)),
    "LocalTensor.get_value": ("t.get_value({index})", (("index", "index", "3"),)),
    "LocalTensor.set_value": ("t.set_value({index}, {value})", (("index", "index", "3"), ("value", "value", "2"))),
    "LocalTensor.view": ("t[{index}:]", (("index", "view_index", "8"),)),
    "TPipe.init_buffer": ("pipe.init_buffer({que}, {num}, {len})",
                          (("que", "buffer", "q"), ("num", "count", "1"), ("len", "count", "256"))),
    "TQue.alloc_tensor": ("q.alloc_tensor({dtype})", (("dtype", "dtype", "asc.float32"),)),
    "TQue.deque": ("q.deque({dtype})", (("dtype", "dtype", "asc.float32"),)),
    "TQue.enque": ("q.enque({tensor})", (("tensor", "local", "t"),)),
    "TQue.free_tensor": ("q.free_tensor({tensor})", (("tensor", "local", "t"),)),
    "TBuf.get": ("b.get({dtype})", (("dtype", "dtype", "asc.float32"),)),
    "TBuf.get_with_offset": ("b.get_with_offset({size}, {buf_offset}, {dtype})",
                             (("size", "count", "8"), ("buf_offset", "count", "32"),
                              ("dtype", "dtype", "asc.float32"))),
    "TPipe.alloc_event_id": ("pipe.alloc_event_id({event})", (("event", "hardevent", "asc.HardEvent.MTE2_V"),)),
    "TPipe.release_event_id": ("pipe.release_event_id({id}, {event})",
                               (("id", "count", "0"), ("event", "hardevent", "asc.HardEvent.MTE2_V"))),
    "TPipe.get_base_addr": ("pipe.get_base_addr({logic_pos})",
                            (("logic_pos", "optional_tposition", "asc.TPosition.VECIN"),)),
    "GlobalTensor.get_phy_addr": ("g.get_phy_addr({offset})", (("offset", "index", "8"),)),
    "LocalTensor.set_size": ("t.set_size({size})", (("size", "count", "16"),)),
    "LocalTensor.set_shape_info": ("t.set_shape_info({shape_info})",
                                   (("shape_info", "shape_info", "asc.ShapeInfo([16])"),)),
    "LocalTensor.get_shape_info": ("t.get_shape_info()", ()),
    "GlobalTensor.set_shape_info": ("g.set_shape_info({shape_info})",
                                    (("shape_info", "shape_info", "asc.ShapeInfo([64])"),)),
    "GlobalTensor.get_shape_info": ("g.get_shape_info()", ()),
    "LocalTensor.set_user_tag": ("t.set_user_tag({tag})", (("tag", "count", "7"),)),
    "LocalTensor.set_addr_with_offset": ("t.set_addr_with_offset({src}, {offset})",
                                         (("src", "local", "u"), ("offset", "count", "8"))),
    "LocalTensor.reinterpret_cast": ("t.reinterpret_cast({dtype})", (("dtype", "dtype", "asc.int32"),)),
    "LocalTensor.print": ("t.print({data_len})", (("data_len", "count", "8"),)),
    "LocalTensor.set_buffer_len": ("t.set_buffer_len({data_len})", (("data_len", "count", "16"),)),
    "LocalTensor.get_phy_addr": ("y = t.get_phy_addr({offset})", (("offset", "index", "8"),)),
    # (the valid call runs: its file goes to the temporary directory)
    "LocalTensor.to_file": ("t.to_file({file_name})",
                            (("file_name", "file_name", repr(os.path.join(tempfile.gettempdir(), "asc-misuse.bin"))),)),
    "GlobalTensor.set_l2_cache_hint": ("g.set_l2_cache_hint({mode}, {rw_mode})",
                                       (("mode", "cachemode", "asc.CacheMode.CACHE_MODE_LAST"),
                                        ("rw_mode", "cacherwmode", "asc.CacheRwMode.READ"))),
    "TPipe.fetch_event_id": ("y = pipe.fetch_event_id({event})", (("event", "hardevent", "asc.HardEvent.V_MTE3"),)),
    "TBuf.alloc_tensor": ("y = b.alloc_tensor({dtype})", (("dtype", "dtype", "asc.int16"),)),
    "TBuf.deque": ("y = b.deque({dtype})", (("dtype", "dtype", "asc.int16"),)),
    "LocalMemAllocator.alloc": ("am.alloc({pos}, {dtype}, {tile_size})",
                                (("pos", "tposition", "asc.TPosition.VECCALC"), ("dtype", "dtype", "asc.float32"),
                                 ("tile_size", "count", "64"))),
    "DataType.sizeof": ("asc.float32.sizeof()", ()),
    # core helpers
    "property": ("asc.property({prop})", (("prop", "property", "asc.ONE_BLK_SIZE"),)),
    "ceildiv": ("asc.ceildiv({x}, {y})", (("x", "integer", "n"), ("y", "divisor", "32"))),
    "static_assert": ("asc.static_assert({test})", (("test", "condition", "True"),)),
    "number": ("asc.number({value}, {dtype})", (("value", "value", "n"), ("dtype", "dtype", "asc.int16"))),
    "array": ("asc.array({dtype}, {values})", (("dtype", "dtype", "asc.int32"), ("values", "array_values", "4"))),
    # family debug
    "printf": ("asc.printf({desc}, {value})", (("desc", "printf_format", "'v=%d\\n'"), ("value", "printf_int", "n"))),
    "dump_tensor": ("asc.dump_tensor({tensor}, {desc}, {dump_size}, {shape_info})",
                    (("tensor", "any_tensor", "t"), ("desc", "u32", "1"), ("dump_size", "u32", "8"),
                     ("shape_info", "optional_shape_info", "asc.ShapeInfo([2, 4])"))),
    "dump_acc_chk_point": ("asc.dump_acc_chk_point({tensor}, {index}, {count_off}, {dump_size})",
                           (("tensor", "any_tensor", "g"), ("index", "u32", "3"), ("count_off", "u32", "8"),
                            ("dump_size", "u32", "8"))),
    "print_time_stamp": ("asc.print_time_stamp({desc_id})", (("desc_id", "u32", "65577"),)),
    "metrics_prof_start": ("asc.metrics_prof_start()", ()),
    "metrics_prof_stop": ("asc.metrics_prof_stop()", ()),
    "set_aipp_functions": ("asc.set_aipp_functions({src0}, {input_format}, {config})",
                           (("src0", "gtensor", "g"), ("input_format", "aippinputformat", "asc.AippInputFormat.RGB888_U8"),
                            ("config", "aipp_params", "asc.AippParams(asc.int8)"))),
    # family listtensor (x is no list: the valid calls that decode it are KernelErrors when they run)
    "TensorDesc": ("asc.TensorDesc({dtype})", (("dtype", "dtype", "asc.float16"),)),
    "TensorDesc.set_shape_addr": ("td.set_shape_addr({shape_ptr})",
                                  (("shape_ptr", "u32", "64"),)),
    "TensorDesc.get_dim": ("y = td.get_dim()", ()),
    "TensorDesc.get_index": ("y = td.get_index()", ()),
    "TensorDesc.get_shape": ("y = td.get_shape({offset})", (("offset", "u32", "0"),)),
    "TensorDesc.get_data_ptr": ("y = td.get_data_ptr()", ()),
    "TensorDesc.get_data_obj": ("y = td.get_data_obj()", ()),
    "ListTensorDesc": ("asc.ListTensorDesc({data}, {length}, {shape_size})",
                       (("data", "address", "x"), ("length", "u32", "0xffffffff"),
                        ("shape_size", "u32", "0xffffffff"))),
    "ListTensorDesc.init": ("ld.init({data}, {length}, {shape_size})",
                            (("data", "address", "x"), ("length", "u32", "0xffffffff"),
                             ("shape_size", "u32", "0xffffffff"))),
    "ListTensorDesc.get_desc": ("ld.get_desc({desc}, {index})",
                                (("desc", "tensor_desc", "asc.TensorDesc()"), ("index", "u32", "0"))),
    "ListTensorDesc.get_data_ptr": ("y = ld.get_data_ptr({index}, {dtype})",
                                    (("index", "u32", "0"), ("dtype", "dtype", "asc.float16"))),
    "ListTensorDesc.get_size": ("y = ld.get_size()", ()),
    # ---- family slice: data_copy's SliceInfo form, the HCCL context registers
    "data_copy.slice": ("asc.data_copy({dst}, {src}, {slice_list1}, {slice_list2}, {dim_value})",
                        (("dst", "local", "t"), ("src", "gtensor", "g"),
                         ("slice_list1", "slice_list", "[asc.SliceInfo()]"),
                         ("slice_list2", "slice_list", "[asc.SliceInfo()]"), ("dim_value", "slice_dim", "1"))),
    # family: cores
    "ascend_is_aic": ("y = asc.ascend_is_aic()", ()),
    "ascend_is_aiv": ("y = asc.ascend_is_aiv()", ()),
    "cross_core_set_flag": ("asc.cross_core_set_flag({flag_id}, {mode_id}, {pipe})",
                            (("flag_id", "core_flag_id", "0"), ("mode_id", "core_mode", "0"),
                             ("pipe", "core_pipe", "asc.PipeID.PIPE_MTE3"))),
    "cross_core_wait_flag": ("asc.cross_core_wait_flag({flag_id}, {mode_id}, {pipe})",
                             (("flag_id", "core_flag_id", "0"), ("mode_id", "core_mode", "0"),
                              ("pipe", "core_pipe", "asc.PipeID.PIPE_MTE3"))),
    "get_hccl_context": ("y = asc.get_hccl_context({index})", (("index", "hccl_index", "0"),)),
    "set_hccl_context": ("asc.set_hccl_context({index}, {context})",
                         (("index", "hccl_index", "1"), ("context", "address", "x"))),
    # family: adv math (asc.adv.*): t, u float32; U8 a uint8 view of t (misuse cases compile, a run's
    # KernelError for the overlap is no concern here)
    "adv.acos": ("asc.adv.acos({dst}, {src}, {count}, {temp_buffer}, {is_reuse_source})",
                (("dst", "local", "u"), ("src", "local", "u"), ("count", "adv_count", "64"), ("temp_buffer", "adv_tmp", U8), ("is_reuse_source", "condition", "False"))),
    "adv.acosh": ("asc.adv.acosh({dst}, {src}, {count}, {temp_buffer}, {is_reuse_source})",
                (("dst", "local", "u"), ("src", "local", "u"), ("count", "adv_count", "64"), ("temp_buffer", "adv_tmp", U8), ("is_reuse_source", "condition", "False"))),
    "adv.asin": ("asc.adv.asin({dst}, {src}, {count}, {temp_buffer}, {is_reuse_source})",
                (("dst", "local", "u"), ("src", "local", "u"), ("count", "adv_count", "64"), ("temp_buffer", "adv_tmp", U8), ("is_reuse_source", "condition", "False"))),
    "adv.asinh": ("asc.adv.asinh({dst}, {src}, {count}, {temp_buffer}, {is_reuse_source})",
                (("dst", "local", "u"), ("src", "local", "u"), ("count", "adv_count", "64"), ("temp_buffer", "adv_tmp", U8), ("is_reuse_source", "condition", "False"))),
    "adv.atan": ("asc.adv.atan({dst}, {src}, {count}, {temp_buffer}, {is_reuse_source})",
                (("dst", "local", "u"), ("src", "local", "u"), ("count", "adv_count", "64"), ("temp_buffer", "adv_tmp", U8), ("is_reuse_source", "condition", "False"))),
    "adv.atanh": ("asc.adv.atanh({dst}, {src}, {count}, {temp_buffer}, {is_reuse_source})",
                (("dst", "local", "u"), ("src", "local", "u"), ("count", "adv_count", "64"), ("temp_buffer", "adv_tmp", U8), ("is_reuse_source", "condition", "False"))),
    "adv.cos": ("asc.adv.cos({dst}, {src}, {count}, {temp_buffer}, {is_reuse_source})",
                (("dst", "local", "u"), ("src", "local", "u"), ("count", "adv_count", "64"), ("temp_buffer", "adv_tmp", U8), ("is_reuse_source", "condition", "False"))),
    "adv.cosh": ("asc.adv.cosh({dst}, {src}, {count}, {temp_buffer}, {is_reuse_source})",
                (("dst", "local", "u"), ("src", "local", "u"), ("count", "adv_count", "64"), ("temp_buffer", "adv_tmp", U8), ("is_reuse_source", "condition", "False"))),
    "adv.sin": ("asc.adv.sin({dst}, {src}, {count}, {temp_buffer}, {is_reuse_source})",
                (("dst", "local", "u"), ("src", "local", "u"), ("count", "adv_count", "64"), ("temp_buffer", "adv_tmp", U8), ("is_reuse_source", "condition", "False"))),
    "adv.sinh": ("asc.adv.sinh({dst}, {src}, {count}, {temp_buffer}, {is_reuse_source})",
                (("dst", "local", "u"), ("src", "local", "u"), ("count", "adv_count", "64"), ("temp_buffer", "adv_tmp", U8), ("is_reuse_source", "condition", "False"))),
    "adv.tan": ("asc.adv.tan({dst}, {src}, {count}, {temp_buffer}, {is_reuse_source})",
                (("dst", "local", "u"), ("src", "local", "u"), ("count", "adv_count", "64"), ("temp_buffer", "adv_tmp", U8), ("is_reuse_source", "condition", "False"))),
    "adv.tanh": ("asc.adv.tanh({dst}, {src}, {count}, {temp_buffer}, {is_reuse_source})",
                (("dst", "local", "u"), ("src", "local", "u"), ("count", "adv_count", "64"), ("temp_buffer", "adv_tmp", U8), ("is_reuse_source", "condition", "False"))),
    "adv.erf": ("asc.adv.erf({dst}, {src}, {count}, {temp_buffer}, {is_reuse_source})",
                (("dst", "local", "u"), ("src", "local", "u"), ("count", "adv_count", "64"), ("temp_buffer", "adv_tmp", U8), ("is_reuse_source", "condition", "False"))),
    "adv.erfc": ("asc.adv.erfc({dst}, {src}, {count}, {temp_buffer}, {is_reuse_source})",
                (("dst", "local", "u"), ("src", "local", "u"), ("count", "adv_count", "64"), ("temp_buffer", "adv_tmp", U8), ("is_reuse_source", "condition", "False"))),
    "adv.digamma": ("asc.adv.digamma({dst}, {src}, {count}, {temp_buffer}, {is_reuse_source})",
                (("dst", "local", "u"), ("src", "local", "u"), ("count", "adv_count", "64"), ("temp_buffer", "adv_tmp", U8), ("is_reuse_source", "condition", "False"))),
    "adv.lgamma": ("asc.adv.lgamma({dst}, {src}, {count}, {temp_buffer}, {is_reuse_source})",
                (("dst", "local", "u"), ("src", "local", "u"), ("count", "adv_count", "64"), ("temp_buffer", "adv_tmp", U8), ("is_reuse_source", "condition", "False"))),
    "adv.log": ("asc.adv.log({dst}, {src}, {count}, {temp_buffer}, {is_reuse_source})",
                (("dst", "local", "u"), ("src", "local", "u"), ("count", "adv_count", "64"), ("temp_buffer", "adv_tmp", U8), ("is_reuse_source", "condition", "False"))),
    "adv.sign": ("asc.adv.sign({dst}, {src}, {count}, {temp_buffer}, {is_reuse_source})",
                (("dst", "local", "u"), ("src", "local", "u"), ("count", "adv_count", "64"), ("temp_buffer", "adv_tmp", U8), ("is_reuse_source", "condition", "False"))),
    "adv.floor": ("asc.adv.floor({dst}, {src}, {count}, {temp_buffer}, {is_reuse_source})",
                (("dst", "local", "u"), ("src", "local", "u"), ("count", "adv_count", "64"), ("temp_buffer", "adv_tmp", U8), ("is_reuse_source", "condition", "False"))),
    "adv.ceil": ("asc.adv.ceil({dst}, {src}, {count}, {temp_buffer}, {is_reuse_source})",
                (("dst", "local", "u"), ("src", "local", "u"), ("count", "adv_count", "64"), ("temp_buffer", "adv_tmp", U8), ("is_reuse_source", "condition", "False"))),
    "adv.round": ("asc.adv.round({dst}, {src}, {count}, {temp_buffer}, {is_reuse_source})",
                (("dst", "local", "u"), ("src", "local", "u"), ("count", "adv_count", "64"), ("temp_buffer", "adv_tmp", U8), ("is_reuse_source", "condition", "False"))),
    "adv.trunc": ("asc.adv.trunc({dst}, {src}, {count}, {temp_buffer}, {is_reuse_source})",
                (("dst", "local", "u"), ("src", "local", "u"), ("count", "adv_count", "64"), ("temp_buffer", "adv_tmp", U8), ("is_reuse_source", "condition", "False"))),
    "adv.frac": ("asc.adv.frac({dst}, {src}, {count}, {temp_buffer}, {is_reuse_source})",
                (("dst", "local", "u"), ("src", "local", "u"), ("count", "adv_count", "64"), ("temp_buffer", "adv_tmp", U8), ("is_reuse_source", "condition", "False"))),
    "adv.exp": ("asc.adv.exp({dst}, {src}, {count}, {taylor_expand_level}, {temp_buffer}, {is_reuse_source})",
                (("dst", "local", "u"), ("src", "local", "u"), ("count", "adv_count", "64"), ("taylor_expand_level", "adv_level", "3"), ("temp_buffer", "adv_tmp", U8), ("is_reuse_source", "condition", "False"))),
    "adv.power": ("asc.adv.power({dst}, {src0}, {src1}, {count}, {temp_buffer}, {is_reuse_source})",
                (("dst", "local", "u"), ("src0", "local", "u"), ("src1", "local", "u"), ("count", "adv_count", "64"), ("temp_buffer", "adv_tmp", U8), ("is_reuse_source", "condition", "False"))),
    "adv.xor": ("asc.adv.xor({dst}, {src0}, {src1}, {count}, {temp_buffer}, {is_reuse_source})",
                (("dst", "local", "u.reinterpret_cast(asc.int16)"), ("src0", "local", "u.reinterpret_cast(asc.int16)"), ("src1", "local", "u.reinterpret_cast(asc.int16)"), ("count", "adv_count", "64"), ("temp_buffer", "adv_tmp", U8), ("is_reuse_source", "condition", "False"))),
    "adv.axpy": ("asc.adv.axpy({dst}, {src}, {scalar}, {count}, {temp_buffer}, {is_reuse_source})",
                 (("dst", "local", "u"), ("src", "local", "u"), ("scalar", "scalar", "1.5"), ("count", "adv_count", "64"), ("temp_buffer", "local", U8), ("is_reuse_source", "condition", "False"))),
    # family: matmul (mmapi): methods of `mm`, an int8 x int8 -> float16 asc.adv.Matmul (MATMUL_PRELUDE)
    "Matmul.set_batch_num": ("mm.set_batch_num({batch_a}, {batch_b})",
                             (("batch_a", "count", "2"), ("batch_b", "count", "2"))),
    "Matmul.set_quant_scalar": ("mm.set_quant_scalar({quant_scalar})", (("quant_scalar", "mm_u64", "5"),)),
    "Matmul.set_hf32": ("mm.set_hf32({enable_hf32}, {trans_mode})",
                        (("enable_hf32", "mm_flag", "True"), ("trans_mode", "mm_mode", "0"))),
    "Matmul.set_workspace": ("mm.set_workspace({addr})", (("addr", "gtensor", "g"),)),
    "Matmul.set_self_define_data": ("mm.set_self_define_data({data_ptr})", (("data_ptr", "mm_data", "5"),)),
    "Matmul.set_user_def_info": ("mm.set_user_def_info({tiling_ptr})", (("tiling_ptr", "address", "x"),)),
    "Matmul.async_get_tensor_c": ("mm.async_get_tensor_c({c})", (("c", "mm_c_local", "h"),)),
    "Matmul.wait_iterate_all": ("mm.wait_iterate_all()", ()),
    "Matmul.wait_iterate_batch": ("mm.wait_iterate_batch()", ()),
    "Matmul.wait_get_tensor_c": ("mm.wait_get_tensor_c()", ()),
    "Matmul.get_offset_c": ("y = mm.get_offset_c()", ()),
    # family: matmul (mmlocal): the L1 / CO1 operand forms, on an int8 Matmul of their own (MatmulType at A1, C1,
    # CO1)
    "Matmul.set_tensor_a": ("mm2 = asc.adv.Matmul(a=asc.adv.MatmulType(asc.TPosition.A1, asc.CubeFormat.NZ, asc.int8), "
                            "b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.int8), "
                            "c=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.int32))\n"
                            "    l1b = asc.TBuf(asc.TPosition.A1)\n"
                            "    pipe.init_buffer(l1b, 1024)\n"
                            "    l1 = l1b.get(asc.int8)\n"
                            "    mm2.set_tensor_a({tensor}, {transpose})  # <-",
                            (("tensor", "mm_l1", "l1"), ("transpose", "mm_flag", "False"))),
    "Matmul.set_bias": ("mm2 = asc.adv.Matmul(a=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.int8), "
                        "b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.int8), "
                        "c=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.int32), "
                        "bias=asc.adv.MatmulType(asc.TPosition.C1, asc.CubeFormat.ND, asc.int32))\n"
                        "    l1b = asc.TBuf(asc.TPosition.C1)\n"
                        "    pipe.init_buffer(l1b, 1024)\n"
                        "    l1 = l1b.get(asc.int32)\n"
                        "    mm2.set_bias({tensor})  # <-", (("tensor", "mm_l1", "l1"),)),
    "Matmul.iterate": ("mm2 = asc.adv.Matmul(a=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.int8), "
                       "b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.int8), "
                       "c=asc.adv.MatmulType(asc.TPosition.CO1, asc.CubeFormat.NZ, asc.int32))\n"
                       "    cob = asc.TBuf(asc.TPosition.CO1)\n"
                       "    pipe.init_buffer(cob, 1024)\n"
                       "    co = cob.get(asc.int32)\n"
                       "    with mm2.iterate({en_partial_sum}, local_c_matrix={local_c_matrix}) as i:  # <-\n"
                       "        pass", (("en_partial_sum", "mm_flag", "False"), ("local_c_matrix", "mm_local_c", "co"))),
    # family: cube: the register setters (the tensor ops' cases are in test_cube.py)
    "set_hf32_mode": ("asc.set_hf32_mode({hf32_mode})", (("hf32_mode", "cube_flag", "True"),)),
    "set_hf32_trans_mode": ("asc.set_hf32_trans_mode({trans_mode})", (("trans_mode", "cube_flag", "False"),)),
    "set_mm_layout_transform": ("asc.set_mm_layout_transform({mm_layout_mode})",
                                (("mm_layout_mode", "cube_flag", "True"),)),
    "set_load_data_boundary": ("asc.set_load_data_boundary({boundary})", (("boundary", "u32", "1024"),)),
    "set_load_data_padding_value": ("asc.set_load_data_padding_value({pad_value})",
                                    (("pad_value", "cube_pad_value", "0"),)),
    "set_load_data_repeat": ("asc.set_load_data_repeat({param})",
                             (("param", "cube_struct", "asc.LoadDataRepeatParam()"),)),
    "set_fix_pipe_pre_quant_flag": ("asc.set_fix_pipe_pre_quant_flag({config})", (("config", "mask_word", "5"),)),
    # family: adv softmax
    # (temp_buffer and the flags: tests/python/test_adv_softmax.py)
    "adv.softmax": ("asc.adv.softmax({dst}, {sum}, {max}, {src}, {tiling})",
                    (("dst", "local", "t"), ("sum", "local", "u"), ("max", "local", "u"), ("src", "local", "t"),
                     ("tiling", "softmax_tiling", "asc.adv.SoftmaxTiling()"))),
    # family: adv normquant
    "adv.rmsnorm": ("rt = asc.adv.RmsNormTiling()\n"
                    "    asc.adv.rmsnorm({dst}, {src}, {gamma}, {epsilon}, {tiling}, basic_block={basic_block})  # <-",
                    (("dst", "local", "t"), ("src", "local", "t"), ("gamma", "local", "u"),
                     ("epsilon", "adv_quant_offset", "1e-5"), ("tiling", "adv_tiling", "rt"),
                     ("basic_block", "adv_flag", "False"))),
    "adv.quant": ("qb = asc.TBuf(asc.TPosition.VECCALC)\n"
                  "    pipe.init_buffer(qb, 2048)\n"
                  "    q8 = qb.get_with_offset(64, 0, asc.int8)\n"
                  "    w8 = qb.get_with_offset(1024, 1024, asc.uint8)\n"
                  "    asc.adv.quant({dst}, {src}, {scale}, {offset}, {count}, {temp_buffer})  # <-",
                  (("dst", "adv_i8_local", "q8"), ("src", "local", "t"), ("scale", "adv_quant_scale", "2.0"),
                   ("offset", "adv_quant_offset", "0.5"), ("count", "optional_count", "64"),
                   ("temp_buffer", "adv_u8_local", "w8"))),
}

# the API names of asc.language that are no callables of the kernel (types, enums) or are covered elsewhere
NOT_CALLED = {"ConstExpr", "DataType", "HardEvent", "PipeID", "RoundMode", "TPosition", "GlobalAddress", "range",
              "static_range", "bool", "bool_", "bfloat16", "double", "float16", "float64", "float_", "half", "int8",
              "int32", "int64", "int_", "uint8", "uint16", "uint32", "uint64"}
# the enums, the hardware properties and void are no callables; inline (an UnsupportedError on the
# simulator) and get_shape_size (of an asc.ShapeInfo) have their cases in test_core_helpers.py
NOT_CALLED |= set(asc.language.core.enums.__all__) | {"DEFAULT_C0_SIZE", "ONE_BLK_SIZE", "TOTAL_L0C_SIZE",
                                                     "TOTAL_L1_SIZE", "void", "inline", "get_shape_size"}
# the region-proposal instructions are a CompileError on the Ascend910B (test_vector_sort.py has their cases)
NOT_CALLED |= {"rp_sort16", "mrg_sort4", "proposal_concat", "proposal_extract"}
# system family: the sync ops on int32 workspaces, data_cache_preload (a uint64 GlobalTensor) and trap (a
# KernelError when it runs) have their misuse cases in test_block_sync.py / test_system.py
NOT_CALLED |= {"ib_set", "ib_wait", "notify_next_block", "wait_pre_block", "data_cache_preload", "trap"}
# family listtensor: TensorList is the host side's list (test_list_tensor_desc.py has its checks)
NOT_CALLED |= {"TensorList"}
# load_image_to_local is an UnsupportedError until the simulator models the L1 (test_aipp_api.py has its case)
NOT_CALLED |= {"load_image_to_local"}  # family debug
# scatter is a CompileError on the Ascend910B, which the devkit does not give it (test_vector_gather.py)
NOT_CALLED |= {"scatter"}
# the parameter structs of the table: test_param_structs.py generates their misuse cases from the table
NOT_CALLED |= set(asc.language.core.types.STRUCTS) - {"BinaryRepeatParams", "UnaryRepeatParams"}
# family: cube: the cube API takes tensors at the cube positions, which this file's kernels do not make;
# test_cube.py has their misuse cases (positions, dtypes, forms not supported yet)
NOT_CALLED |= {"load_data", "mmad", "fixpipe", "load_data_with_transpose", "load_data_with_sparse",
               "mmad_with_sparse", "init_const_value"}


def _misuse_values(kind: str) -> List[str]:
    return [k for k in VALUES if k not in ACCEPTS[kind]]


def _call(api: str, replace: Optional[Tuple[str, str]] = None) -> str:
    template, params = API[api]
    values = {name: valid for name, _, valid in params}
    if replace:
        values[replace[0]] = replace[1]
    return template.format(**values)


# APIs whose last parameter has a default (dropping it is no misuse)
OPTIONAL_LAST = {"LocalTensor", "TQue", "TBuf", "set_flag", "wait_flag", "BinaryRepeatParams", "UnaryRepeatParams",
                 "GlobalTensor.set_global_buffer", "TQueBind", "TBufPool", "LocalMemAllocator",
                 "TPipe.alloc_event_id", "TPipe.release_event_id", "TPipe.get_base_addr", "GlobalTensor.get_phy_addr",
                 "LocalTensor.set_size", "LocalTensor.set_user_tag", "LocalTensor.get_phy_addr",
                 "GlobalTensor.set_l2_cache_hint", "TPipe.fetch_event_id", "set_vector_mask",
                 "reduce_max", "reduce_min", "sort", "mrg_sort",
                 "whole_reduce_max", "whole_reduce_sum",  # cmpsel family: order, is_set_mask
                 "dump_tensor",  # family debug
                 "set_pad_value",  # datamove family
                 "TensorDesc", "ListTensorDesc", "ListTensorDesc.init",  # family listtensor
                 "Matmul.set_hf32",  # family: matmul
                 "adv.quant",  # family: adv normquant (temp_buffer)
                 *(f"adv.{n}" for n in ("acos", "acosh", "asin", "asinh", "atan", "atanh", "cos", "cosh", "sin", "sinh", "tan",
                                        "tanh", "erf", "erfc", "digamma", "lgamma", "log", "sign", "floor", "ceil",
                                        "round", "trunc", "frac", "exp", "power", "xor", "axpy"))}  # family: adv math


def _arity_cases(api: str) -> List[Tuple[str, str]]:
    """An unknown keyword, too many arguments, too few."""
    call = _call(api)
    if not call.endswith(")"):
        return []  # (subscripts)
    head, args = call[:call.index("(") + 1], call[call.index("(") + 1:-1]
    sep = ", " if args else ""
    items = args.split(", ") if args else []
    kw = next((i for i, a in enumerate(items) if "=" in a), len(items))  # (extra positionals go before keywords)
    many = ", ".join(items[:kw] + ["1, 2, 3, 4, 5, 6, 7"] + items[kw:])
    out = [(f"{api}: unknown keyword", f"{head}{args}{sep}foo=1)"),
           (f"{api}: too many arguments", f"{head}{many})")]
    if args and api not in OPTIONAL_LAST:
        out.append((f"{api}: too few arguments", head + ", ".join(args.split(", ")[:-1]) + ")"))
    return out


# ---------------------------------------------------------------------------
# misuses outside the argument lists
# ---------------------------------------------------------------------------

OTHER: List[Tuple[str, str]] = [
    # calling what is not callable
    ("call a runtime int", "n(3)"), ("call a runtime int64", "s()"), ("call an address", "x(1)"),
    ("call a TPipe", "pipe()"), ("call a TQue", "q(0)"), ("call a TBuf", "b()"), ("call the module", "asc()"),
    ("call an enum member", "asc.TPosition.VECIN()"), ("call a number", "y = 5\n    y(2)  # <-"),
    ("call a tuple", "y = (1, 2)\n    y(0)  # <-"), ("call None", "y = None\n    y()  # <-"),
    ("call a string", "y = 'add'\n    y(t, t, t, 64)  # <-"),
    # attributes that do not exist
    ("attribute of a runtime int", "y = n.foo"), ("attribute of an address", "y = x.foo"),
    ("attribute of a GlobalTensor", "g.no_such_method(n)"), ("attribute of a LocalTensor", "y = t.shape"),
    ("attribute of a TPipe", "pipe.init_buffers(q, 1, 64)"), ("attribute of a TQue", "q.alloc(asc.float32)"),
    ("attribute of the module", "asc.DataCopyParamz()"), ("misspelt API", "asc.ad(t, t, u, 64)"),
    ("attribute of a dtype", "y = asc.float32.bits"), ("attribute of an enum", "y = asc.TPosition.VECINN"),
    ("attribute of an enum member", "y = asc.HardEvent.MTE2_V.foo"), ("attribute of a number", "y = (5).foo"),
    # subscripts
    ("index a runtime int", "y = n[0]"), ("index an address", "y = x[0]"), ("index a TPipe", "y = pipe[0]"),
    ("index a TQue", "y = q[1]"), ("index a dtype", "y = asc.float32[0]"), ("index the module", "y = asc[0]"),
    ("index a function", "y = asc.add[0]"), ("index a number", "y = (5)[0]"),
    ("tuple index out of range", "y = (1, 2)[5]"), ("tuple index by a runtime value", "y = (1, 2)[n]"),
    ("tuple index by a float", "y = (1, 2)[1.5]"), ("tensor slice with a stop", "y = g[1:2]"),
    ("tensor index by a tuple", "y = t[0, 1]"), ("tensor index by a float", "y = g[1.5]"),
    ("tensor index by a tensor", "y = g[t]"),
    # API objects used as numbers
    ("TPipe plus one", "y = pipe + 1"), ("TQue times two", "y = q * 2"), ("dtype plus one", "y = asc.float32 + 1"),
    ("enum plus one", "y = asc.TPosition.VECIN + 1"), ("enum negated", "y = -asc.HardEvent.MTE2_V"),
    ("module plus one", "y = asc + 1"), ("negated TPipe", "y = -pipe"), ("negated module", "y = -asc"),
    ("GlobalTensor plus one", "y = g + 1"), ("LocalTensor times two", "y = t * 2"),
    ("address times two", "y = x * 2"), ("address minus one", "y = x - 1"), ("address plus float", "y = x + 1.5"),
    ("address plus address", "y = x + x"), ("compare a TPipe", "y = pipe < 1"),
    ("compare dtypes", "y = asc.float32 < asc.float16"), ("int() of a TPipe", "y = int(pipe)"),
    ("float() of a dtype", "y = float(asc.float32)"), ("abs() of a TQue", "y = abs(q)"),
    ("min() of a TPipe", "y = min(pipe, 1)"), ("max() of one value", "y = max(n)"),
    ("TPipe as a condition", "if pipe:\n        pass"), ("tensor as a condition", "y = 1 if g else 2"),
    ("not of a tensor", "y = not t"), ("enum stored as a value", "g.set_value(0, asc.TPosition.VECIN)"),
    ("enum as a count", "asc.add(t, t, u, asc.TPosition.VECIN)"), ("store a tensor in a tensor", "t.set_value(0, g)"),
    ("dtype as a scalar", "asc.adds(t, t, asc.float32, 64)"),
    # operators between incompatible values
    ("runtime int plus tensor", "y = n + g"), ("float modulo", "y = f % 2"), ("runtime power", "y = n ** 2"),
    ("float shift", "y = f << 1"), ("tuple plus runtime int", "y = (1, 2) + n"), ("list times runtime", "y = [1] * n"),
    ("string plus int", "y = 'a' + 1"), ("matrix product", "y = n @ n"), ("`in` on a runtime value", "y = n in (1, 2)"),
    ("`is` on a runtime value", "y = n is 1"), ("invert a float", "y = ~f"), ("float floor division", "y = f // 2"),
    ("huge compile-time power", "y = 2 ** 2 ** 20"), ("huge compile-time shift", "y = 1 << 2 ** 40"),
    ("huge compile-time repetition", "y = [0] * 2 ** 40"), ("compile-time division by zero", "y = 1 // 0"),
    ("compile-time float overflow", "y = 10.0 ** 400"), ("runtime tuple as a condition", "if (n, n):\n        pass"),
    ("unpack a runtime value", "y, z = n"), ("unpack a tensor", "y, z = g"),
    ("an array as a condition", "if TABLE:\n        pass"), ("an array index by a runtime value", "y = TABLE[n]"),
    ("an array index out of range", "y = TABLE[7]"),
    ("int too wide for int32", "g.set_value(0, n + 2 ** 70)"), ("float and an int bitwise", "y = asc.int32(n) & 2.5"),
    # range
    ("range of a float", "for i in range(2.5):\n        pass"), ("range of a tensor", "for i in range(g):\n        pass"),
    ("range of a dtype", "for i in range(asc.float32):\n        pass"),
    ("range of four arguments", "for i in range(1, 2, 3, 4):\n        pass"),
    ("range with a keyword", "for i in range(n, step=2):\n        pass"),
    ("range with a zero step", "for i in range(0, n, 0):\n        pass"),
    ("range of a huge bound", "for i in range(2 ** 70):\n        pass"),
    ("range of a runtime float", "for i in range(f):\n        pass"),
    ("loop over a runtime int", "for i in n:\n        pass"), ("loop over a tuple", "for i in (1, 2):\n        pass"),
    ("loop over a tensor", "for i in g:\n        pass"),
    ("static_range of a runtime bound", "for i in asc.static_range(n):\n        pass"),
    ("static_range too long", "for i in asc.static_range(2 ** 31):\n        pass"),
    ("unrolled too far", "for i in asc.static_range(300):\n        for j in asc.static_range(300):\n"
                         "            pass  # <-"),
    ("tuple loop variable", "for i, j in range(3):\n        pass"), ("range as a value", "y = range(3)"),
    ("asc.range as a value", "y = asc.range(n)"), ("compile-time while that never ends", "while (1, n):\n        pass"),
    # device functions
    ("device function: too many arguments", "y = dev(n, 1, 2)"), ("device function: too few", "y = dev()"),
    ("device function: unknown keyword", "y = dev(n, 2, z=1)"),
    ("device function: keyword twice", "y = dev(n, 2, a=n)"),
    ("device function: ConstExpr from a runtime value", "y = dev(n, n)"),
    ("device function: tensor without a buffer", "dev_tensor(e)"),
    ("device function: call the kernel", "y = dev_kernel[1](x)"),
    # the framework's rules
    ("a second TPipe", "y = asc.TPipe()"), ("alloc_tensor(dtype) of a depth-0 queue",
                                            "z = asc.TQue(asc.TPosition.VECIN, 0)\n    y = z.alloc_tensor(asc.float32)  # <-"),
    ("in-place alloc_tensor of a queue with depth", "q.alloc_tensor(t)"),
    ("free_all_event of a TBuf", "b.free_all_event()"), ("TQueBind from GM to GM",
                                                         "y = asc.TQueBind(asc.TPosition.GM, asc.TPosition.GM, 1)"),
    ("get_with_offset at an unaligned offset", "y = b.get_with_offset(8, 16, asc.float32)"),
    ("a TQue at TPosition.CO2", "y = asc.TQue(asc.TPosition.CO2, 1)"),
    ("to_file without a name", "t.to_file('')"),
]

DEVICE = '''

@asc.jit
def dev(a, m: asc.ConstExpr[int]):
    return a * m


@asc.jit
def dev_tensor(h: asc.GlobalTensor):
    h.set_value(0, 1)


@asc.jit
def dev_kernel(x: asc.GlobalAddress):
    pass
'''


# ---------------------------------------------------------------------------
# the generated module
# ---------------------------------------------------------------------------

Case = Tuple[str, str, int]  # (id, statement(s), line of the misuse)


# The first parameter of each kind gets every value it does not take; later ones of the same kind (the
# `count` of twenty APIs) every SPREAD-th, starting one further each time, so that together they still
# see every value and the file stays fast.
SPREAD = 3


def _cases() -> Tuple[List[Case], List[Case]]:
    valid: List[Case] = []
    misuse: List[Case] = []
    seen: Dict[str, int] = {}
    for api, (_, params) in API.items():
        valid.append((api, _call(api), 0))
        for name, kind, _ in params:
            n = seen[kind] = seen.get(kind, -1) + 1
            values = _misuse_values(kind)
            if n > 0:
                values = values[n % SPREAD::SPREAD]
            for v in values:
                misuse.append((f"{api}: {name}={v}", _call(api, (name, VALUES[v])), 0))
        misuse += [(i, stmt, 0) for i, stmt in _arity_cases(api)]
    misuse += [(i, stmt, 0) for i, stmt in OTHER]
    return valid, misuse


CASES_PER_MODULE = 64  # (inspect reads a kernel's source by scanning its file: keep the files short)
_DIR = tempfile.mkdtemp(prefix="asc-misuse-")
atexit.register(shutil.rmtree, _DIR, ignore_errors=True)  # (the kernels' sources live until the end)


@dataclass
class Located:
    id: str
    line: int  # the line of the misuse in its module
    module: Any
    kernel: str

    def jit(self) -> Any:
        return getattr(self.module, self.kernel)


def _write_modules(cases: List[Case], tag: str) -> List[Located]:
    """Modules holding a kernel per case (files, so that errors can quote the lines)."""
    out: List[Located] = []
    for m in range(0, len(cases), CASES_PER_MODULE):
        lines = ["import numpy as np", "", "import asc", "", "TABLE = np.arange(4)  # a module-level lookup table", ""]
        placed = []
        for j, (cid, stmt, _) in enumerate(cases[m:m + CASES_PER_MODULE]):
            name = f"case_{tag}_{m + j}"
            lines += ["", "@asc.jit(always_compile=True)", f"def {name}(x: asc.GlobalAddress, n: int, f: float):"]
            static = tag == "valid" and any(stmt.startswith(api.split("{")[0]) for api in STATIC_APIS)
            lines += (STATIC_PRELUDE if static else PRELUDE).rstrip("\n").split("\n")
            if "mm." in stmt:  # family: matmul (mmapi)
                lines += MATMUL_PRELUDE.rstrip("\n").split("\n")
            marked = [i for i, text in enumerate(stmt.split("\n")) if text.endswith("# <-")]
            placed.append((cid, len(lines) + 1 + (marked[0] if marked else 0), name))
            lines += ("    " + stmt).split("\n") + [""]
        modname = f"asc_misuse_{tag}_{m // CASES_PER_MODULE}"
        path = os.path.join(_DIR, modname + ".py")
        with open(path, "w") as fh:
            fh.write("\n".join(lines) + DEVICE)
        spec = importlib.util.spec_from_file_location(modname, path)
        assert spec and spec.loader
        mod = importlib.util.module_from_spec(spec)
        sys.modules[modname] = mod
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", SyntaxWarning)  # ("'int' object is not callable; perhaps you missed a comma?")
            spec.loader.exec_module(mod)
        out += [Located(cid, line, mod, name) for cid, line, name in placed]
    return out


_VALID_CASES, _MISUSE_CASES = _cases()
VALID = _write_modules(_VALID_CASES, "valid")
MISUSE = _write_modules(_MISUSE_CASES, "misuse")


def _launch(kernel: Any) -> None:
    kernel[1](np.zeros(64, np.float32), 3, 2.5)


@pytest.mark.parametrize("index", range(len(VALID)), ids=[c.id for c in VALID])
def test_valid_calls_compile(index: int) -> None:
    """The unchanged calls compile (each misuse is then the only error of its kernel). What they do
    when they run is not the point here: a set_flag nobody waits for is the sanitizer's finding."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", asc.SanitizerWarning)
        try:
            _launch(VALID[index].jit())
        except asc.KernelError:
            pass


@pytest.mark.parametrize("index", range(len(MISUSE)), ids=[c.id for c in MISUSE])
def test_misuse_is_a_compile_error_at_its_line(index: int) -> None:
    case = MISUSE[index]
    with pytest.raises(asc.CompileError) as info:
        _launch(case.jit())
    err = info.value
    assert os.path.samefile(err.filename, case.module.__file__), err
    assert err.line == case.line, f"{case.id}: expected line {case.line}, got {err.line}:\n{err}"
    assert err.message.strip(), err
    assert err.hint and err.hint.startswith("hint: ") and len(err.hint) > len("hint: "), err
    text = str(err).splitlines()
    src = linecache.getline(err.filename, err.line).rstrip("\n")
    assert f"    {src}" in text, text
    caret = text[text.index(f"    {src}") + 1]
    assert caret.strip() == "^" and len(caret) - 1 == 4 + err.col, text
    # no internal exception text leaks out
    assert "Traceback" not in str(err) and "object has no attribute 'name'" not in err.message


def test_every_callable_of_the_api_has_misuse_cases() -> None:
    """A new API function or class must come with its misuse cases here."""
    covered = {api.split(".")[0] for api in API}
    missing = sorted(set(LANGUAGE_API) - covered - NOT_CALLED)
    assert not missing, f"add the valid calls of {missing} to API in this file"
    for name in NOT_CALLED:
        assert name in LANGUAGE_API, f"{name} is no longer part of the API: remove it from NOT_CALLED"


def test_messages_name_the_api_and_the_value() -> None:
    """Spot checks of the wording: what was expected, what was passed, what to write."""
    def message(cid: str, stmt: Optional[str] = None) -> asc.CompileError:
        # (a case of its own where the spread sampling of VALUES may not pick the value)
        case = _write_modules([(cid, stmt, 0)], "spot")[0] if stmt else next(c for c in MISUSE if c.id == cid)
        with pytest.raises(asc.CompileError) as info:
            _launch(case.jit())
        return info.value

    e = message("GlobalTensor: unknown keyword")
    assert "asc.GlobalTensor" in e.message and "foo" in e.message
    e = message("TQue: depth=rint", "y = asc.TQue(asc.TPosition.VECOUT, n)")
    assert "depth" in e.message and "runtime int32 value" in e.message and "compile-time" in e.message
    e = message("set_flag: event=tposition")
    assert "asc.HardEvent" in e.message and "asc.TPosition.VECIN" in e.message and "asc.HardEvent." in e.hint
    e = message("add: count=rfloat")
    assert re.search(r"asc\.add: count must be an integer, got a runtime float32 value", e.message), e.message
    assert "asc.add(dst, src0, src1, count)" in e.hint
    e = message("call a runtime int")
    assert "`n` is a runtime int32 value, which cannot be called" in e.message
    e = message("misspelt API")
    assert "`asc` (the module asc) has no attribute `ad`" in e.message and "`add`" in e.hint
    e = message("store a tensor in a tensor")
    assert "LocalTensor.set_value" in e.message and "GlobalTensor" in e.message
    e = message("device function: too many arguments")
    assert "calling dev" in e.message and "dev(a, m)" in e.hint


@pytest.mark.parametrize("depth", [600])
def test_an_expression_nesting_too_deeply_is_a_compile_error(tmp_path: Any, depth: int) -> None:
    """Deeper than Python's recursion limit allows the visitor: a CompileError at the statement, not a
    RecursionError."""
    path = tmp_path / "deep.py"
    path.write_text("import asc\n\n\n@asc.jit(always_compile=True)\ndef deep(x: asc.GlobalAddress, n: int, f: float):\n"
                    "    y = " + " + ".join(["n"] * depth) + "\n")
    spec = importlib.util.spec_from_file_location("asc_misuse_deep", path)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    with pytest.raises(asc.CompileError, match="nests too deeply") as info:
        _launch(mod.deep)
    assert info.value.line == 6 and info.value.hint


def test_keyboard_interrupt_is_never_turned_into_a_compile_error(tmp_path: Any, monkeypatch: Any) -> None:
    """The safety net catches Exceptions only: Ctrl-C while compiling still stops the program."""
    path = tmp_path / "interrupted.py"
    path.write_text("import asc\n\n\n@asc.jit(always_compile=True)\ndef interrupted(x: asc.GlobalAddress, n: int, "
                    "f: float):\n    y = asc.get_block_num()\n")
    spec = importlib.util.spec_from_file_location("asc_misuse_interrupted", path)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)

    def get_block_num() -> None:
        raise KeyboardInterrupt

    get_block_num.__module__ = "asc.language.basic.sys_var"  # an API function, as far as the visitor knows
    monkeypatch.setattr(asc, "get_block_num", get_block_num)
    with pytest.raises(KeyboardInterrupt):
        _launch(mod.interrupted)


def test_an_unexpected_exception_of_an_api_names_the_api(tmp_path: Any, monkeypatch: Any) -> None:
    """The safety net of the calls: an API failing in a way it does not check itself."""
    path = tmp_path / "failing.py"
    path.write_text("import asc\n\n\n@asc.jit(always_compile=True)\ndef failing(x: asc.GlobalAddress, n: int, "
                    "f: float):\n    y = asc.get_block_num()\n")
    spec = importlib.util.spec_from_file_location("asc_misuse_failing", path)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)

    def get_block_num() -> None:
        raise LookupError("no block count today")

    get_block_num.__module__ = "asc.language.basic.sys_var"
    monkeypatch.setattr(asc, "get_block_num", get_block_num)
    with pytest.raises(asc.CompileError) as info:
        _launch(mod.failing)
    assert info.value.message == "asc.get_block_num: no block count today"
    assert info.value.line == 6 and info.value.col == 8 and info.value.hint
