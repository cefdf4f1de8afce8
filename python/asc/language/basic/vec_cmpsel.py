"""Compare and select: `asc.compare` (AscendC::Compare),
`asc.compare_scalar` (AscendC::Compares), `asc.select` (AscendC::Select)
and the CmpMask register (`asc.get_cmp_mask`, `asc.set_cmp_mask`), with
upstream pyasc's signatures; src/sim/compare.c and select.c have their
semantics.

Compare's result is a bit mask in a uint8 tensor (Compare also takes int8):
bit i % 8 of byte i / 8 is 1 when element i satisfies the CMPMODE. On the
Ascend910B the sources are float16 or float32 in every mode, int32 in
CMPMODE.EQ only. The count form compares whole 256-byte repeats only; the
level-0 forms compare every element of each repeat (the mask is a reserved
parameter of Compare on this core), repeat r's bits following repeat r - 1's
in dst. `compare(src0, src1, cmp_mode, mask, repeat_params)` compares one
repeat under the mask into the 128-bit CmpMask register. Comparisons follow
IEEE 754 (-0 equals +0) except that a NaN satisfies no mode, NE included
(the hardware's NE: the devkit's boundary value tables 30 and 31).

Select picks src0[i] where the selection bit is 1, else src1[i] (a tensor,
or a scalar in SelMode.VSEL_TENSOR_SCALAR_MODE); the selection bits come
from sel_mask (modes 1 and 2, consumed one repeat after another) or from
the CmpMask register (VSEL_CMPMASK_SPR: the same 256 / sizeof(T) bits every
repeat). float16 and float32; sel_mask uint8, uint16, uint32 or uint64."""

from __future__ import annotations

from typing import Any

from ...codegen import builder as _b
from ..core.checks import describe, enum_arg, error, usage
from ..core.enums import CMPMODE, SelMode
from ..core.types import BinaryRepeatParams, UnaryRepeatParams
from ..core.values import LocalTensor, Scalar, int_operand, is_number, to_scalar
from .cmpsel_args import bind, flag, int_arg, mask_operands
from .utils import local


def _params(api: str, value: Any, cls: type) -> Any:
    if not isinstance(value, cls):
        raise error(f"{api}: repeat_params must be an asc.{cls.__name__}, got {describe(value)}")
    return value.to_ir()


def _is_level0(args: tuple, kwargs: dict) -> bool:
    return "mask" in kwargs or "repeat_times" in kwargs or len(args) >= 2


def _l0(api: str, form: str, dtype: Any, args: tuple, kwargs: dict, params: type) -> tuple:
    p = bind(api, ("mask", "repeat_times", "repeat_params", "is_set_mask"), {"is_set_mask": True},
             args, kwargs, form)
    set_mask = flag(api, p["is_set_mask"], "is_set_mask")
    masks, mode = mask_operands(api, p["mask"], dtype)
    ops = masks + [int_arg(api, p["repeat_times"], "repeat_times", 0, 255), _params(api, p["repeat_params"], params)]
    attrs = {"mask_mode": mode}
    if not set_mask:
        attrs["is_set_mask"] = 0
    return ops, attrs


def _count(api: str, form: str, args: tuple, kwargs: dict) -> Scalar:
    p = bind(api, ("count", "is_set_mask"), {"is_set_mask": True}, args, kwargs, form)
    flag(api, p["is_set_mask"], "is_set_mask")
    return int_operand(p["count"], "count")


_COMPARE_FORMS = ("asc.compare(dst, src0, src1, cmp_mode, count)",
                  "asc.compare(dst, src0, src1, cmp_mode, mask, repeat_times, repeat_params, is_set_mask=True)",
                  "asc.compare(src0, src1, cmp_mode, mask, repeat_params, is_set_mask=True)")


@usage(*_COMPARE_FORMS)
def compare(*args: Any, **kwargs: Any) -> None:
    """`compare(dst, src0, src1, cmp_mode, count)`: dst's bit i is
    `src0[i] <cmp_mode> src1[i]` for the first count elements (whole
    256-byte repeats only).
    `compare(dst, src0, src1, cmp_mode, mask, repeat_times, repeat_params,
    is_set_mask=True)` (mask an int or [mask0, mask1]; repeat_params an
    asc.BinaryRepeatParams): repeat_times repeats, each comparing all
    256 / sizeof(T) elements (the mask is reserved on the Ascend910B), their
    bits one repeat after another in dst.
    `compare(src0, src1, cmp_mode, mask, repeat_params, is_set_mask=True)`:
    one repeat under the mask, the bits into the CmpMask register (read it
    with asc.get_cmp_mask, select with SelMode.VSEL_CMPMASK_SPR).
    dst is uint8 or int8; the sources float16 or float32 (int32: CMPMODE.EQ
    only; the register form: float16 or float32)."""
    api = "asc.compare"
    names = ("dst", "src0", "src1", "cmp_mode")
    pos = list(args)
    # the register form: (src0, src1, cmp_mode, ...) has its CMPMODE third
    if (len(pos) >= 3 and isinstance(pos[2], CMPMODE)) or (len(pos) == 2 and "cmp_mode" in kwargs):
        p = bind(api, ("src0", "src1", "cmp_mode", "mask", "repeat_params", "is_set_mask"),
                 {"is_set_mask": True}, tuple(pos), kwargs, _COMPARE_FORMS[2])
        a, b = local(p["src0"], api, "src0"), local(p["src1"], api, "src1")
        mode = enum_arg(p["cmp_mode"], CMPMODE, api, "cmp_mode")
        set_mask = flag(api, p["is_set_mask"], "is_set_mask")
        masks, mm = mask_operands(api, p["mask"], a.dtype)
        attrs = {"cmp_mode": ("CMPMODE", mode), "mask_mode": mm}
        if not set_mask:
            attrs["is_set_mask"] = 0
        _b.current().create("asc.compare.cmpmask", [a, b] + masks + [_params(api, p["repeat_params"],
                                                                              BinaryRepeatParams)], attrs=attrs)
        return
    head = dict(zip(names, pos[:4]))
    rest = tuple(pos[4:])
    kw = dict(kwargs)
    for n in names:
        if n in kw:
            if n in head:
                raise error(f"{api}: argument '{n}' given twice", f"hint: write {_COMPARE_FORMS[0]}")
            head[n] = kw.pop(n)
    missing = [n for n in names if n not in head]
    if missing:
        raise error(f"{api}: missing argument(s) {', '.join(missing)}", f"hint: write {_COMPARE_FORMS[0]}")
    d, a, b = local(head["dst"], api, "dst"), local(head["src0"], api, "src0"), local(head["src1"], api, "src1")
    mode = enum_arg(head["cmp_mode"], CMPMODE, api, "cmp_mode")
    if _is_level0(rest, kw):
        ops, attrs = _l0(api, _COMPARE_FORMS[1], a.dtype, rest, kw, BinaryRepeatParams)
        attrs["cmp_mode"] = ("CMPMODE", mode)
        _b.current().create("asc.compare.l0", [d, a, b] + ops, attrs=attrs)
        return
    count = _count(api, _COMPARE_FORMS[0], rest, kw)
    _b.current().create("asc.compare", [d, a, b, count], attrs={"cmp_mode": ("CMPMODE", mode)})


@usage("asc.compare_scalar(dst, src0, src1_scalar, cmp_mode, count)",
       "asc.compare_scalar(dst, src0, src1_scalar, cmp_mode, mask, repeat_times, repeat_params, is_set_mask=True)")
def compare_scalar(dst: LocalTensor, src0: LocalTensor, src1_scalar: Any, cmp_mode: Any, *args: Any,
                   **kwargs: Any) -> None:
    """`compare_scalar(dst, src0, src1_scalar, cmp_mode, count)`: dst's bit
    i is `src0[i] <cmp_mode> src1_scalar` for the first count elements
    (whole 256-byte repeats only; AscendC::Compares). The level-0 form
    `(..., mask, repeat_times, repeat_params, is_set_mask=True)` takes an
    asc.UnaryRepeatParams and compares every element of each repeat (the
    mask is reserved on the Ascend910B). dst is uint8; src0 float16 or
    float32 (int32: CMPMODE.EQ only); the scalar is converted to src0's
    type."""
    api = "asc.compare_scalar"
    d, a = local(dst, api, "dst"), local(src0, api, "src0")
    if not (is_number(src1_scalar) or isinstance(src1_scalar, Scalar)):
        raise error(f"{api}: src1_scalar must be a number or a runtime scalar, got {describe(src1_scalar)}",
                    "hint: write asc.compare_scalar(dst, src0, 0.5, asc.CMPMODE.LT, count)")
    mode = enum_arg(cmp_mode, CMPMODE, api, "cmp_mode")
    s = to_scalar(src1_scalar, a.dtype)
    if _is_level0(args, kwargs):
        ops, attrs = _l0(api, "asc.compare_scalar(dst, src0, src1_scalar, cmp_mode, mask, repeat_times, "
                         "repeat_params)", a.dtype, args, kwargs, UnaryRepeatParams)
        attrs["cmp_mode"] = ("CMPMODE", mode)
        _b.current().create("asc.compare_scalar.l0", [d, a, s] + ops, attrs=attrs)
        return
    count = _count(api, "asc.compare_scalar(dst, src0, src1_scalar, cmp_mode, count)", args, kwargs)
    _b.current().create("asc.compare_scalar", [d, a, s, count], attrs={"cmp_mode": ("CMPMODE", mode)})


@usage("asc.get_cmp_mask(dst)")
def get_cmp_mask(dst: LocalTensor) -> None:
    """Copies the 128-bit CmpMask register into dst's first 16 bytes
    (AscendC::GetCmpMask)."""
    _b.current().create("asc.get_cmp_mask", [local(dst, "asc.get_cmp_mask", "dst")])


@usage("asc.set_cmp_mask(src)")
def set_cmp_mask(src: LocalTensor) -> None:
    """Loads the 128-bit CmpMask register from src's first 16 bytes
    (AscendC::SetCmpMask): the selection bits of SelMode.VSEL_CMPMASK_SPR,
    the scalar (first element) of the register form of
    VSEL_TENSOR_SCALAR_MODE, or (low 32 bits) the UB address of the
    selection mask of VSEL_TENSOR_TENSOR_MODE's register form."""
    _b.current().create("asc.set_cmp_mask", [local(src, "asc.set_cmp_mask", "src")])


_SELECT_FORMS = (
    "asc.select(dst, sel_mask, src0, src1, sel_mode, count)",
    "asc.select(dst, sel_mask, src0, src1, sel_mode, mask, repeat_times, repeat_params, is_set_mask=True)",
    "asc.select(dst, sel_mask, src0, repeat_times, repeat_params)",
    "asc.select(dst, src0, src1, repeat_times=..., repeat_params=..., sel_mode=...)",
)


@usage(*_SELECT_FORMS)
def select(dst: LocalTensor, *args: Any, **kwargs: Any) -> None:
    """`select(dst, sel_mask, src0, src1, sel_mode, count)`: dst[i] =
    src0[i] where the selection bit of element i is 1, else src1[i] (src1 a
    tensor, or a scalar with SelMode.VSEL_TENSOR_SCALAR_MODE), for the first
    count elements.
    `select(dst, sel_mask, src0, src1, sel_mode, mask, repeat_times,
    repeat_params, is_set_mask=True)`: the level-0 form (repeat_params an
    asc.BinaryRepeatParams); elements the mask disables keep dst.
    `select(dst, sel_mask, src0, repeat_times, repeat_params)`:
    VSEL_TENSOR_SCALAR_MODE with the scalar in the CmpMask register (set it
    with asc.set_cmp_mask) and the mask register as it is.
    `select(dst, src0, src1, repeat_times=, repeat_params=, sel_mode=)`:
    AscendC::Select<T, selMode>: VSEL_CMPMASK_SPR takes its bits from the
    CmpMask register, VSEL_TENSOR_TENSOR_MODE from the UB address it holds.
    SelMode.VSEL_CMPMASK_SPR reads the same 256 / sizeof(T) bits every
    repeat (the count and mask forms load them from sel_mask first); the
    other modes consume sel_mask's bits repeat after repeat. dst, src0 and
    src1 float16 or float32; sel_mask uint8/16/32/64."""
    api = "asc.select"
    d = local(dst, api, "dst")
    if len(args) == 2 and {"repeat_times", "repeat_params", "sel_mode"} <= set(kwargs):
        kw = dict(kwargs)
        mode = enum_arg(kw.pop("sel_mode"), SelMode, api, "sel_mode")
        if mode == SelMode.VSEL_TENSOR_SCALAR_MODE:
            raise error(f"{api}: this form is AscendC::Select<T, selMode> for VSEL_CMPMASK_SPR or "
                        "VSEL_TENSOR_TENSOR_MODE", f"hint: write {_SELECT_FORMS[2]} for the scalar mode")
        p = bind(api, ("repeat_times", "repeat_params"), {}, (), kw, _SELECT_FORMS[3])
        a, b = local(args[0], api, "src0"), local(args[1], api, "src1")
        _b.current().create("asc.select.cmpmask",
                            [d, a, b, int_arg(api, p["repeat_times"], "repeat_times", 0, 255),
                             _params(api, p["repeat_params"], BinaryRepeatParams)],
                            attrs={"sel_mode": ("SelMode", mode)})
        return
    if len(args) < 2:
        raise error(f"{api}: missing arguments", f"hint: write {_SELECT_FORMS[0]}")
    m, a = local(args[0], api, "sel_mask"), local(args[1], api, "src0")
    rest, kw = args[2:], dict(kwargs)
    # (repeat_times, repeat_params): the scalar mode with the scalar in the register
    if (len(rest) == 2 and isinstance(rest[1], BinaryRepeatParams)) or (
            not rest and set(kw) == {"repeat_times", "repeat_params"}):
        p = bind(api, ("repeat_times", "repeat_params"), {}, rest, kw, _SELECT_FORMS[2])
        _b.current().create("asc.select_scalar.cmpmask",
                            [d, m, a, int_arg(api, p["repeat_times"], "repeat_times", 0, 255),
                             _params(api, p["repeat_params"], BinaryRepeatParams)])
        return
    names = ("src1", "sel_mode")
    head = dict(zip(names, rest[:2]))
    rest = rest[2:]
    for n in names:
        if n in kw:
            if n in head:
                raise error(f"{api}: argument '{n}' given twice", f"hint: write {_SELECT_FORMS[0]}")
            head[n] = kw.pop(n)
    if any(n not in head for n in names):
        raise error(f"{api}: missing argument(s) {', '.join(n for n in names if n not in head)}",
                    f"hint: write {_SELECT_FORMS[0]}")
    mode = enum_arg(head["sel_mode"], SelMode, api, "sel_mode")
    src1 = head["src1"]
    scalar = not isinstance(src1, LocalTensor)
    if scalar:
        if not (is_number(src1) or isinstance(src1, Scalar)):
            raise error(f"{api}: src1 must be a LocalTensor or a number, got {describe(src1)}",
                        f"hint: write {_SELECT_FORMS[0]}")
        if mode != SelMode.VSEL_TENSOR_SCALAR_MODE:
            raise error(f"{api}: a scalar src1 needs SelMode.VSEL_TENSOR_SCALAR_MODE, got SelMode.{mode.name}",
                        "hint: pass asc.SelMode.VSEL_TENSOR_SCALAR_MODE, or a tensor src1")
        s1: Any = to_scalar(src1, a.dtype)
    else:
        if mode == SelMode.VSEL_TENSOR_SCALAR_MODE:
            raise error(f"{api}: SelMode.VSEL_TENSOR_SCALAR_MODE takes a scalar src1, got a LocalTensor",
                        "hint: pass VSEL_CMPMASK_SPR or VSEL_TENSOR_TENSOR_MODE with a tensor src1")
        s1 = local(src1, api, "src1")
    op = "asc.select_scalar" if scalar else "asc.select"
    attrs: dict = {"sel_mode": ("SelMode", mode)}
    if _is_level0(rest, kw):
        ops, l0 = _l0(api, _SELECT_FORMS[1], d.dtype, rest, kw, BinaryRepeatParams)
        attrs.update(l0)
        _b.current().create(op + ".l0", [d, m, a, s1] + ops, attrs=attrs)
        return
    p = bind(api, ("count",), {}, rest, kw, _SELECT_FORMS[0])
    _b.current().create(op, [d, m, a, s1, int_arg(api, p["count"], "count", 0, 2**32 - 1)], attrs=attrs)
