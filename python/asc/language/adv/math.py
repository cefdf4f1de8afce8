"""The math library of the advanced API (`asc.adv.acos` ... `asc.adv.xor`), as upstream pyasc's
asc.language.adv.math: AscendC::Acos ... AscendC::Xor of include/adv_api/math/ (src/sim/adv_math.c has their
semantics). Each is one IR op `asc.adv.math.<name>`; the simulator runs the devkit's sequence of basic vector
instructions.

Common rules: `count` (the elements to compute, from each tensor's start) defaults to `src.get_size()`, as the
devkit's overloads without calCount do. `temp_buffer` is the devkit's sharedTmpBuffer, a uint8 LocalTensor of at
least the size the devkit's GetXxxMaxMinTmpSize gives as the minimum (a smaller one is a KernelError); without one
the devkit's framework takes the UB above what the TPipe gave out. `is_reuse_source` (and Exp's
`taylor_expand_level`) are template arguments of the devkit's API: Python constants. float16 and float32 (Xor:
int16 and uint16); dst must overlap neither source, temp_buffer none of them."""

from __future__ import annotations

import enum
from typing import Any, List, Optional

from ...codegen import builder as _b
from ..basic.utils import local
from ..core import dtype as dt
from ..core.checks import describe, error, usage
from ..core.values import LocalTensor, Scalar, int_operand, is_number, to_scalar


def _flag(api: str, value: Any) -> int:
    if type(value) is not bool:
        raise error(f"{api}: is_reuse_source must be a Python bool (True or False), got {describe(value)}",
                    "hint: is_reuse_source is a template argument of the devkit's API (a compile-time constant)")
    return int(value)


def _count(api: str, count: Any, src: LocalTensor) -> Scalar:
    if count is None:
        return src.get_size()
    if isinstance(count, int) and not isinstance(count, bool) and count < 0:
        raise error(f"{api}: count = {count} is negative (the number of elements to compute)")
    return int_operand(count, f"{api}: count")


def _tmp(api: str, temp_buffer: Any) -> Optional[LocalTensor]:
    if temp_buffer is None:
        return None
    t = local(temp_buffer, api, "temp_buffer")
    if t.dtype != dt.uint8:
        raise error(f"{api}: temp_buffer must be a uint8 LocalTensor, got a {t.dtype.name} one",
                    "hint: allocate it as a uint8 tensor (que.alloc_tensor(asc.uint8)) or reinterpret_cast it")
    return t


def _emit(name: str, tensors: List[LocalTensor], extra: List[Any], count: Any, temp_buffer: Any,
          is_reuse_source: Any, attrs: Optional[dict] = None) -> None:
    api = f"asc.adv.{name}"
    a = {"is_reuse_source": _flag(api, is_reuse_source)}
    a.update(attrs or {})
    tmp = _tmp(api, temp_buffer)
    operands: List[Any] = list(tensors) + extra + [_count(api, count, tensors[1])]
    if tmp is not None:
        operands.append(tmp)
    _b.current().create(f"asc.adv.math.{name}", operands, attrs=a)


def _unary(name: str, dst: Any, src: Any, count: Any, temp_buffer: Any, is_reuse_source: Any) -> None:
    api = f"asc.adv.{name}"
    _emit(name, [local(dst, api, "dst"), local(src, api, "src")], [], count, temp_buffer, is_reuse_source)


@usage("asc.adv.acos(dst, src, count=None, temp_buffer=None, is_reuse_source=False)")
def acos(dst: LocalTensor, src: LocalTensor, count: Optional[Any] = None, temp_buffer: Optional[LocalTensor] = None,
         is_reuse_source: bool = False) -> None:
    """dst = the arc cosine of each element (radians, in [0, pi]; NaN outside [-1, 1]) (AscendC::Acos; float16 or float32, one type for dst and src; `count` elements, by default
    src.get_size()). `temp_buffer`: the devkit's sharedTmpBuffer (uint8), or None for the framework's."""
    _unary("acos", dst, src, count, temp_buffer, is_reuse_source)


@usage("asc.adv.acosh(dst, src, count=None, temp_buffer=None, is_reuse_source=False)")
def acosh(dst: LocalTensor, src: LocalTensor, count: Optional[Any] = None, temp_buffer: Optional[LocalTensor] = None,
          is_reuse_source: bool = False) -> None:
    """dst = the inverse hyperbolic cosine of each element (NaN below 1) (AscendC::Acosh; float16 or float32, one type for dst and src; `count` elements, by default
    src.get_size()). `temp_buffer`: the devkit's sharedTmpBuffer (uint8), or None for the framework's."""
    _unary("acosh", dst, src, count, temp_buffer, is_reuse_source)


@usage("asc.adv.asin(dst, src, count=None, temp_buffer=None, is_reuse_source=False)")
def asin(dst: LocalTensor, src: LocalTensor, count: Optional[Any] = None, temp_buffer: Optional[LocalTensor] = None,
         is_reuse_source: bool = False) -> None:
    """dst = the arc sine of each element (radians, in [-pi/2, pi/2]; NaN outside [-1, 1]) (AscendC::Asin; float16 or float32, one type for dst and src; `count` elements, by default
    src.get_size()). `temp_buffer`: the devkit's sharedTmpBuffer (uint8), or None for the framework's."""
    _unary("asin", dst, src, count, temp_buffer, is_reuse_source)


@usage("asc.adv.asinh(dst, src, count=None, temp_buffer=None, is_reuse_source=False)")
def asinh(dst: LocalTensor, src: LocalTensor, count: Optional[Any] = None, temp_buffer: Optional[LocalTensor] = None,
          is_reuse_source: bool = False) -> None:
    """dst = the inverse hyperbolic sine of each element (AscendC::Asinh; float16 or float32, one type for dst and src; `count` elements, by default
    src.get_size()). `temp_buffer`: the devkit's sharedTmpBuffer (uint8), or None for the framework's."""
    _unary("asinh", dst, src, count, temp_buffer, is_reuse_source)


@usage("asc.adv.atan(dst, src, count=None, temp_buffer=None, is_reuse_source=False)")
def atan(dst: LocalTensor, src: LocalTensor, count: Optional[Any] = None, temp_buffer: Optional[LocalTensor] = None,
         is_reuse_source: bool = False) -> None:
    """dst = the arc tangent of each element (radians, in (-pi/2, pi/2)) (AscendC::Atan; float16 or float32, one type for dst and src; `count` elements, by default
    src.get_size()). `temp_buffer`: the devkit's sharedTmpBuffer (uint8), or None for the framework's."""
    _unary("atan", dst, src, count, temp_buffer, is_reuse_source)


@usage("asc.adv.atanh(dst, src, count=None, temp_buffer=None, is_reuse_source=False)")
def atanh(dst: LocalTensor, src: LocalTensor, count: Optional[Any] = None, temp_buffer: Optional[LocalTensor] = None,
          is_reuse_source: bool = False) -> None:
    """dst = the inverse hyperbolic tangent of each element (defined on (-1, 1)) (AscendC::Atanh; float16 or float32, one type for dst and src; `count` elements, by default
    src.get_size()). `temp_buffer`: the devkit's sharedTmpBuffer (uint8), or None for the framework's."""
    _unary("atanh", dst, src, count, temp_buffer, is_reuse_source)


@usage("asc.adv.ceil(dst, src, count=None, temp_buffer=None, is_reuse_source=False)")
def ceil(dst: LocalTensor, src: LocalTensor, count: Optional[Any] = None, temp_buffer: Optional[LocalTensor] = None,
         is_reuse_source: bool = False) -> None:
    """dst = each element rounded up to an integer value (toward +inf) (AscendC::Ceil; float16 or float32, one type for dst and src; `count` elements, by default
    src.get_size()). `temp_buffer`: the devkit's sharedTmpBuffer (uint8), or None for the framework's."""
    _unary("ceil", dst, src, count, temp_buffer, is_reuse_source)


@usage("asc.adv.cos(dst, src, count=None, temp_buffer=None, is_reuse_source=False)")
def cos(dst: LocalTensor, src: LocalTensor, count: Optional[Any] = None, temp_buffer: Optional[LocalTensor] = None,
        is_reuse_source: bool = False) -> None:
    """dst = the cosine of each element (radians) (AscendC::Cos; float16 or float32, one type for dst and src; `count` elements, by default
    src.get_size()). `temp_buffer`: the devkit's sharedTmpBuffer (uint8), or None for the framework's."""
    _unary("cos", dst, src, count, temp_buffer, is_reuse_source)


@usage("asc.adv.cosh(dst, src, count=None, temp_buffer=None, is_reuse_source=False)")
def cosh(dst: LocalTensor, src: LocalTensor, count: Optional[Any] = None, temp_buffer: Optional[LocalTensor] = None,
         is_reuse_source: bool = False) -> None:
    """dst = the hyperbolic cosine of each element (AscendC::Cosh; float16 or float32, one type for dst and src; `count` elements, by default
    src.get_size()). `temp_buffer`: the devkit's sharedTmpBuffer (uint8), or None for the framework's."""
    _unary("cosh", dst, src, count, temp_buffer, is_reuse_source)


@usage("asc.adv.digamma(dst, src, count=None, temp_buffer=None, is_reuse_source=False)")
def digamma(dst: LocalTensor, src: LocalTensor, count: Optional[Any] = None, temp_buffer: Optional[LocalTensor] = None,
            is_reuse_source: bool = False) -> None:
    """dst = the digamma function (the logarithmic derivative of the gamma function) of each element (AscendC::Digamma; float16 or float32, one type for dst and src; `count` elements, by default
    src.get_size()). `temp_buffer`: the devkit's sharedTmpBuffer (uint8), or None for the framework's."""
    _unary("digamma", dst, src, count, temp_buffer, is_reuse_source)


@usage("asc.adv.erf(dst, src, count=None, temp_buffer=None, is_reuse_source=False)")
def erf(dst: LocalTensor, src: LocalTensor, count: Optional[Any] = None, temp_buffer: Optional[LocalTensor] = None,
        is_reuse_source: bool = False) -> None:
    """dst = the Gauss error function of each element (AscendC::Erf; float16 or float32, one type for dst and src; `count` elements, by default
    src.get_size()). `temp_buffer`: the devkit's sharedTmpBuffer (uint8), or None for the framework's."""
    _unary("erf", dst, src, count, temp_buffer, is_reuse_source)


@usage("asc.adv.erfc(dst, src, count=None, temp_buffer=None, is_reuse_source=False)")
def erfc(dst: LocalTensor, src: LocalTensor, count: Optional[Any] = None, temp_buffer: Optional[LocalTensor] = None,
         is_reuse_source: bool = False) -> None:
    """dst = the complementary error function 1 - erf(x) of each element (AscendC::Erfc; float16 or float32, one type for dst and src; `count` elements, by default
    src.get_size()). `temp_buffer`: the devkit's sharedTmpBuffer (uint8), or None for the framework's."""
    _unary("erfc", dst, src, count, temp_buffer, is_reuse_source)


@usage("asc.adv.floor(dst, src, count=None, temp_buffer=None, is_reuse_source=False)")
def floor(dst: LocalTensor, src: LocalTensor, count: Optional[Any] = None, temp_buffer: Optional[LocalTensor] = None,
          is_reuse_source: bool = False) -> None:
    """dst = each element rounded down to an integer value (toward -inf) (AscendC::Floor; float16 or float32, one type for dst and src; `count` elements, by default
    src.get_size()). `temp_buffer`: the devkit's sharedTmpBuffer (uint8), or None for the framework's."""
    _unary("floor", dst, src, count, temp_buffer, is_reuse_source)


@usage("asc.adv.frac(dst, src, count=None, temp_buffer=None, is_reuse_source=False)")
def frac(dst: LocalTensor, src: LocalTensor, count: Optional[Any] = None, temp_buffer: Optional[LocalTensor] = None,
         is_reuse_source: bool = False) -> None:
    """dst = the fractional part of each element, x - trunc(x) (it keeps x's sign) (AscendC::Frac; float16 or float32, one type for dst and src; `count` elements, by default
    src.get_size()). `temp_buffer`: the devkit's sharedTmpBuffer (uint8), or None for the framework's."""
    _unary("frac", dst, src, count, temp_buffer, is_reuse_source)


@usage("asc.adv.lgamma(dst, src, count=None, temp_buffer=None, is_reuse_source=False)")
def lgamma(dst: LocalTensor, src: LocalTensor, count: Optional[Any] = None, temp_buffer: Optional[LocalTensor] = None,
           is_reuse_source: bool = False) -> None:
    """dst = the natural logarithm of the absolute value of the gamma function of each element (AscendC::Lgamma; float16 or float32, one type for dst and src; `count` elements, by default
    src.get_size()). `temp_buffer`: the devkit's sharedTmpBuffer (uint8), or None for the framework's."""
    _unary("lgamma", dst, src, count, temp_buffer, is_reuse_source)


@usage("asc.adv.round(dst, src, count=None, temp_buffer=None, is_reuse_source=False)")
def round(dst: LocalTensor, src: LocalTensor, count: Optional[Any] = None, temp_buffer: Optional[LocalTensor] = None,
          is_reuse_source: bool = False) -> None:
    """dst = each element rounded to the nearest integer value, ties to even (AscendC::Round; float16 or float32, one type for dst and src; `count` elements, by default
    src.get_size()). `temp_buffer`: the devkit's sharedTmpBuffer (uint8), or None for the framework's."""
    _unary("round", dst, src, count, temp_buffer, is_reuse_source)


@usage("asc.adv.sign(dst, src, count=None, temp_buffer=None, is_reuse_source=False)")
def sign(dst: LocalTensor, src: LocalTensor, count: Optional[Any] = None, temp_buffer: Optional[LocalTensor] = None,
         is_reuse_source: bool = False) -> None:
    """dst = the sign of each element: -1, 1, or 0 for zeros of either sign and for NaN (AscendC::Sign; float16 or float32, one type for dst and src; `count` elements, by default
    src.get_size()). `temp_buffer`: the devkit's sharedTmpBuffer (uint8), or None for the framework's."""
    _unary("sign", dst, src, count, temp_buffer, is_reuse_source)


@usage("asc.adv.sin(dst, src, count=None, temp_buffer=None, is_reuse_source=False)")
def sin(dst: LocalTensor, src: LocalTensor, count: Optional[Any] = None, temp_buffer: Optional[LocalTensor] = None,
        is_reuse_source: bool = False) -> None:
    """dst = the sine of each element (radians) (AscendC::Sin; float16 or float32, one type for dst and src; `count` elements, by default
    src.get_size()). `temp_buffer`: the devkit's sharedTmpBuffer (uint8), or None for the framework's."""
    _unary("sin", dst, src, count, temp_buffer, is_reuse_source)


@usage("asc.adv.sinh(dst, src, count=None, temp_buffer=None, is_reuse_source=False)")
def sinh(dst: LocalTensor, src: LocalTensor, count: Optional[Any] = None, temp_buffer: Optional[LocalTensor] = None,
         is_reuse_source: bool = False) -> None:
    """dst = the hyperbolic sine of each element (AscendC::Sinh; float16 or float32, one type for dst and src; `count` elements, by default
    src.get_size()). `temp_buffer`: the devkit's sharedTmpBuffer (uint8), or None for the framework's."""
    _unary("sinh", dst, src, count, temp_buffer, is_reuse_source)


@usage("asc.adv.tan(dst, src, count=None, temp_buffer=None, is_reuse_source=False)")
def tan(dst: LocalTensor, src: LocalTensor, count: Optional[Any] = None, temp_buffer: Optional[LocalTensor] = None,
        is_reuse_source: bool = False) -> None:
    """dst = the tangent of each element (radians) (AscendC::Tan; float16 or float32, one type for dst and src; `count` elements, by default
    src.get_size()). `temp_buffer`: the devkit's sharedTmpBuffer (uint8), or None for the framework's."""
    _unary("tan", dst, src, count, temp_buffer, is_reuse_source)


@usage("asc.adv.tanh(dst, src, count=None, temp_buffer=None, is_reuse_source=False)")
def tanh(dst: LocalTensor, src: LocalTensor, count: Optional[Any] = None, temp_buffer: Optional[LocalTensor] = None,
         is_reuse_source: bool = False) -> None:
    """dst = the hyperbolic tangent of each element (AscendC::Tanh; float16 or float32, one type for dst and src; `count` elements, by default
    src.get_size()). `temp_buffer`: the devkit's sharedTmpBuffer (uint8), or None for the framework's."""
    _unary("tanh", dst, src, count, temp_buffer, is_reuse_source)


@usage("asc.adv.trunc(dst, src, count=None, temp_buffer=None, is_reuse_source=False)")
def trunc(dst: LocalTensor, src: LocalTensor, count: Optional[Any] = None, temp_buffer: Optional[LocalTensor] = None,
          is_reuse_source: bool = False) -> None:
    """dst = each element rounded toward zero to an integer value (AscendC::Trunc; float16 or float32, one type for dst and src; `count` elements, by default
    src.get_size()). `temp_buffer`: the devkit's sharedTmpBuffer (uint8), or None for the framework's."""
    _unary("trunc", dst, src, count, temp_buffer, is_reuse_source)


@usage("asc.adv.exp(dst, src, count, taylor_expand_level, temp_buffer=None, is_reuse_source=False)")
def exp(dst: LocalTensor, src: LocalTensor, count: Any, taylor_expand_level: int,
        temp_buffer: Optional[LocalTensor] = None, is_reuse_source: bool = False) -> None:
    """dst = e ** src elementwise (AscendC::Exp<T, taylorExpandLevel, isReuseSource>; float16 or float32).
    taylor_expand_level 0 is the basic Exp instruction; a level k > 0 computes in float e ** floor(x) times the
    Taylor polynomial of degree k of e ** (x - floor(x)) (more terms: more precise, slower), and then needs a
    temp_buffer (or the framework's UB). With is_reuse_source=True on float the devkit keeps its intermediate
    fractional parts in src (src is overwritten)."""
    api = "asc.adv.exp"
    if isinstance(taylor_expand_level, (bool, enum.Enum)) or not isinstance(taylor_expand_level, int):
        raise error(f"{api}: taylor_expand_level must be a Python int (a template argument), got "
                    f"{describe(taylor_expand_level)}")
    if not 0 <= taylor_expand_level <= 255:
        raise error(f"{api}: taylor_expand_level = {taylor_expand_level} is out of range [0, 255] (a uint8_t)")
    _emit("exp", [local(dst, api, "dst"), local(src, api, "src")], [], count, temp_buffer, is_reuse_source,
          {"taylor_expand_level": taylor_expand_level})


@usage("asc.adv.log(dst, src, count=None, temp_buffer=None, is_reuse_source=False)")
def log(dst: LocalTensor, src: LocalTensor, count: Optional[Any] = None, temp_buffer: Optional[LocalTensor] = None,
        is_reuse_source: bool = False) -> None:
    """dst = ln(src) elementwise (AscendC::Log; float16 or float32): the basic Ln instruction. The devkit's Log
    takes no temporary buffer: a temp_buffer given (as upstream's signature allows) is checked and left unused
    (the emitted call has none)."""
    api = "asc.adv.log"
    _tmp(api, temp_buffer)
    _emit("log", [local(dst, api, "dst"), local(src, api, "src")], [], count, None, is_reuse_source)


@usage("asc.adv.power(dst, src0, src1, count=None, temp_buffer=None, is_reuse_source=False)")
def power(dst: LocalTensor, src0: LocalTensor, src1: LocalTensor, count: Optional[Any] = None,
          temp_buffer: Optional[LocalTensor] = None, is_reuse_source: bool = False) -> None:
    """dst = src0 ** src1 elementwise (AscendC::Power, the tensor-tensor form; float16, float32 or int32, one
    type for the three tensors), computed as the devkit does. Floats in float: Exp(src1 * Ln|src0|) with the
    sign of an odd integer power of a negative base; 1 for src1 == 0, src0 == 1 and (-1) ** +-inf; NaN for a
    negative base with a finite non-integer exponent. int32: repeated squaring and multiplication, the products
    wrapping; a negative exponent gives trunc(1 / src0 ** -src1) (1, -1 or 0); an exponent of INT32_MIN is a
    KernelError (the devkit's loop would not end)."""
    api = "asc.adv.power"
    d, s0, s1 = local(dst, api, "dst"), local(src0, api, "src0"), local(src1, api, "src1")
    _emit("power", [d, s0, s1], [], count, temp_buffer, is_reuse_source)


@usage("asc.adv.xor(dst, src0, src1, count=None, temp_buffer=None, is_reuse_source=False)")
def xor(dst: LocalTensor, src0: LocalTensor, src1: LocalTensor, count: Optional[Any] = None,
        temp_buffer: Optional[LocalTensor] = None, is_reuse_source: bool = False) -> None:
    """dst = src0 ^ src1 elementwise (AscendC::Xor; int16 or uint16, one type for the three tensors), computed
    as the devkit does, (a | b) & ~(a & b)."""
    api = "asc.adv.xor"
    _emit("xor", [local(dst, api, "dst"), local(src0, api, "src0"), local(src1, api, "src1")], [], count,
          temp_buffer, is_reuse_source)


@usage("asc.adv.axpy(dst, src, scalar, count=None, temp_buffer=..., is_reuse_source=False)")
def axpy(dst: LocalTensor, src: LocalTensor, scalar: Any, count: Optional[Any] = None,
         temp_buffer: Optional[LocalTensor] = None, is_reuse_source: bool = False) -> None:
    """dst = dst + src * scalar elementwise (AscendC::Axpy<T, U>: half/half, float/float, or a float dst with a
    half src; the scalar has src's type). Unlike the basic asc.axpy it multiplies and adds in float with two
    roundings (Muls, then Add). The devkit's Axpy always takes its sharedTmpBuffer: temp_buffer is required
    here (a CompileError without one)."""
    api = "asc.adv.axpy"
    d, s = local(dst, api, "dst"), local(src, api, "src")
    if not (is_number(scalar) or isinstance(scalar, Scalar)):
        raise error(f"{api}: the scalar must be a number or a runtime scalar, got {describe(scalar)}")
    if temp_buffer is None:
        raise error(f"{api}: the devkit's Axpy has no form without sharedTmpBuffer: pass temp_buffer",
                    "hint: a uint8 LocalTensor of at least 1024 bytes for a half src (any size for float)")
    _emit("axpy", [d, s], [to_scalar(scalar, s.dtype)], count, temp_buffer, is_reuse_source)
