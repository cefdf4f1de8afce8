"""The quant family: dequantisation with the DEQSCALE register
(`asc.set_deq_scale`, `asc.cast_deq`, `asc.add_deq_relu`), the fused
casts (`asc.mul_cast`, `asc.add_relu_cast`, `asc.sub_relu_cast`) and
`asc.bilinear_interpolation`, with upstream pyasc's names and signatures
(upstream keeps them in vec_vconv.py and vec_binary.py).

Element types on the Ascend910B: cast_deq int16 -> int8/uint8 and int32 ->
float16; add_deq_relu int32 -> float16; mul_cast float16 -> int8/uint8;
add_relu_cast and sub_relu_cast float16 -> int8, float32 -> float16,
int16 -> int8; bilinear_interpolation float16 (offsets uint32, the
temporary buffer uint8). Others are a CompileError."""

from __future__ import annotations

from typing import Any

from ...codegen import builder as _b
from ..core import dtype as dt
from ..core.checks import error, got, usage
from ..core.types import VdeqInfo
from ..core.values import LocalTensor, Scalar, int_operand, is_number, to_scalar
from .utils import local
from .vec_ops import _check_const, _u64, is_level0, level0_operands


def _flag(x: Any, api: str, name: str) -> int:
    if type(x) is not bool:
        raise error(f"{api}: `{name}` must be a bool (a template argument of the instruction), got {got(x)}")
    return int(x)


def _number(x: Any, api: str, name: str, dtype: dt.DataType) -> Scalar:
    if isinstance(x, bool) or not (is_number(x) or isinstance(x, Scalar)):
        raise error(f"{api}: `{name}` must be a number or a runtime scalar, got {got(x)}")
    return to_scalar(x, dtype)


@usage("asc.set_deq_scale(scale)", "asc.set_deq_scale(scale, offset, sign_mode)",
       "asc.set_deq_scale(vdeq, vdeq_info)")
def set_deq_scale(*args: Any, **kwargs: Any) -> None:
    """Writes the DEQSCALE register that `cast_deq` and `add_deq_relu` read
    (AscendC::SetDeqScale).

    - `set_deq_scale(scale)`: a half scale, for cast_deq from int32 to
      float16 and for add_deq_relu;
    - `set_deq_scale(scale, offset, sign_mode)`: a float scale, an offset
      (its low 9 bits, signed) and the sign mode (True: int8 results,
      False: uint8), for cast_deq from int16 with is_vec_deq=False;
    - `set_deq_scale(vdeq, vdeq_info)`: 16 such configs (an asc.VdeqInfo)
      written to the uint64 LocalTensor vdeq (16 elements), for cast_deq
      from int16 with is_vec_deq=True: element i % 16 of each 32-byte
      source block uses config i % 16."""
    api = "asc.set_deq_scale"
    names = ("scale", "offset", "sign_mode")
    if (args and isinstance(args[0], LocalTensor)) or "vdeq" in kwargs:
        bound = dict(zip(("vdeq", "vdeq_info"), args))
        for k, v in kwargs.items():
            if k not in ("vdeq", "vdeq_info") or k in bound:
                raise error(f"{api}: unexpected or repeated argument `{k}` for set_deq_scale(vdeq, vdeq_info)")
            bound[k] = v
        if len(args) > 2 or len(bound) != 2:
            raise error(f"{api}(vdeq, vdeq_info) takes exactly a LocalTensor and an asc.VdeqInfo")
        vdeq = local(bound["vdeq"], api, "vdeq")
        info = bound["vdeq_info"]
        if not isinstance(info, VdeqInfo):
            raise error(f"{api}: `vdeq_info` must be an asc.VdeqInfo, got {got(info)}")
        _b.current().create("asc.set_deq_scale.vector", [vdeq, info.to_ir()])
        return
    bound = dict(zip(names, args))
    for k, v in kwargs.items():
        if k not in names or k in bound:
            raise error(f"{api}: unexpected or repeated argument `{k}`")
        bound[k] = v
    if len(args) > 3 or "scale" not in bound:
        raise error(f"{api}: takes (scale), (scale, offset, sign_mode) or (vdeq, vdeq_info)")
    if len(bound) == 1:
        _b.current().create("asc.set_deq_scale", [_number(bound["scale"], api, "scale", dt.float16)])
        return
    if len(bound) != 3:
        raise error(f"{api}: the config form takes all of scale, offset and sign_mode")
    offset, sign = bound["offset"], bound["sign_mode"]
    _check_const(offset, -32768, 32767, f"{api}: offset")
    if isinstance(sign, bool):
        sign_v = to_scalar(int(sign), dt.bool_)
    elif isinstance(sign, Scalar) and sign.dtype == dt.bool_:
        sign_v = sign
    else:
        raise error(f"{api}: `sign_mode` must be a bool, got {got(sign)}")
    _b.current().create("asc.set_deq_scale.config", [
        _number(bound["scale"], api, "scale", dt.float32),
        to_scalar(int_operand(offset, f"{api}: offset"), dt.int16), sign_v])


@usage("asc.cast_deq(dst, src, count)", "asc.cast_deq(dst, src, count, is_vec_deq=True, half_block=True)",
       "asc.cast_deq(dst, src, mask, repeat_times, asc.UnaryRepeatParams(...))")
def cast_deq(dst: LocalTensor, src: LocalTensor, *args: Any, **kwargs: Any) -> None:
    """Dequantises src into dst (AscendC::CastDeq) with the scales of
    `set_deq_scale`: int16 -> int8/uint8 as `(src * scale) + offset`,
    rounded to nearest even and saturated (the config's sign mode picks
    int8 or uint8), int32 -> float16 as `src * scale` rounded to half.

    Forms: `cast_deq(dst, src, count, is_vec_deq=True, half_block=True)`
    and `cast_deq(dst, src, mask, repeat_times, repeat_params,
    is_set_mask=True, is_vec_deq=True, half_block=True)` (the mask follows
    the int16/int32 source). With an int16 source each 32-byte source
    block's 16 results fill one half of the matching 32-byte dst block:
    bytes 16-31 with half_block=True, 0-15 with False; the other half is
    left as it was (so dst spans the blocks of the source). is_vec_deq
    picks the 16 configs of `set_deq_scale(vdeq, vdeq_info)` (True) or the
    one of `set_deq_scale(scale, offset, sign_mode)` (False)."""
    api = "asc.cast_deq"
    kwargs = dict(kwargs)
    flags = {}
    for name in ("is_vec_deq", "half_block"):
        flags[name] = _flag(kwargs.pop(name, True), api, name)
    d, s = local(dst, api, "dst"), local(src, api, "src")
    rest = list(args)
    # the count form's flags follow the count: (count, True, False) is not a level-0 call
    level0 = "mask" in kwargs or "repeat_times" in kwargs or (len(rest) >= 2 and type(rest[1]) is not bool)
    if level0:
        # positional: mask, repeat_times, repeat_params, is_set_mask, is_vec_deq, half_block
        if len(rest) > 6:
            raise error(f"{api}: too many arguments for the level-0 form")
        for name in ("half_block", "is_vec_deq"):
            if len(rest) > 4 + (name == "half_block"):
                flags[name] = _flag(rest.pop(4 + (name == "half_block")), api, name)
        wide = d.dtype if d.dtype.sizeof() >= s.dtype.sizeof() else s.dtype
        l0, mask_mode, set_mask = level0_operands(api, "unary", wide, tuple(rest), kwargs)
        attrs = dict(mask_mode=mask_mode, **flags)
        if not set_mask:
            attrs["is_set_mask"] = 0
        _b.current().create("asc.cast_deq.l0", [d, s] + l0, attrs=attrs)
        return
    # count form: (count, is_vec_deq=True, half_block=True)
    if len(rest) > 3:
        raise error(f"{api}: too many arguments for the count form (count, is_vec_deq, half_block)")
    if len(rest) >= 2:
        flags["is_vec_deq"] = _flag(rest[1], api, "is_vec_deq")
    if len(rest) == 3:
        flags["half_block"] = _flag(rest[2], api, "half_block")
    count = rest[0] if rest else kwargs.pop("count", None)
    if count is None or kwargs:
        raise error(f"{api}: " + (f"unexpected argument `{sorted(kwargs)[0]}`" if kwargs else "missing the count"),
                    f"hint: write {api}(dst, src, count)")
    _check_const(count, 0, 2**32 - 1, f"{api}: count")
    _b.current().create("asc.cast_deq", [d, s, int_operand(count, "count")], attrs=flags)


def _binary_cast(op: str, dst: Any, src0: Any, src1: Any, args: tuple, kwargs: dict,
                 set_mask_ok: bool = True) -> None:
    api = op
    if not set_mask_ok and (len(args) > 3 or "is_set_mask" in kwargs):
        raise error(f"{api}: the level-0 form is (mask, repeat_times, repeat_params); it takes no is_set_mask")
    d, a, b = local(dst, api, "dst"), local(src0, api, "src0"), local(src1, api, "src1")
    if is_level0(args, kwargs):
        # the mask follows the wider of the two types (the devkit's SetMask<U> / SetMask<T>)
        wide = d.dtype if d.dtype.sizeof() >= a.dtype.sizeof() else a.dtype
        l0, mode, set_mask = level0_operands(api, "binary", wide, args, kwargs)
        attrs = {"mask_mode": mode}
        if not set_mask:
            attrs["is_set_mask"] = 0
        _b.current().create(op + ".l0", [d, a, b] + l0, attrs=attrs)
        return
    _count_form(op, d, a, b, args, kwargs)


def _count_form(op: str, d: LocalTensor, a: LocalTensor, b: LocalTensor, args: tuple, kwargs: dict) -> None:
    kwargs = dict(kwargs)
    count = args[0] if args else kwargs.pop("count", None)
    if len(args) > 1 or count is None or kwargs:
        raise error(f"{op}: the count form is {op}(dst, src0, src1, count)", f"hint: write {op}(dst, src0, src1, count)")
    _check_const(count, 0, 2**31 - 1, f"{op}: count")
    _b.current().create(op, [d, a, b, int_operand(count, "count")])


@usage("asc.add_deq_relu(dst, src0, src1, count)",
       "asc.add_deq_relu(dst, src0, src1, mask, repeat_times, asc.BinaryRepeatParams(...))")
def add_deq_relu(dst: LocalTensor, src0: LocalTensor, src1: LocalTensor, *args: Any, **kwargs: Any) -> None:
    """`add_deq_relu(dst, src0, src1, count)` (AscendC::AddDeqRelu):
    dst[i] = max(0, half(float(src0[i] + src1[i]) * scale)) with the half
    scale of `set_deq_scale(scale)`; int32 sources, a float16 dst. As the
    devkit does, the instruction uses its sources as scratch: src0 is left
    holding the float products and src1 the half results (in its first
    bytes). The level-0 form `(mask, repeat_times, repeat_params,
    is_set_mask=True)` follows the devkit's sequence (64 int32 elements a
    repeat under the mask, each dst repeat 128 halves under the half mask:
    with a mask above 64 the upper 64 are the next repeat's results).
    With is_set_mask=False the mask argument is ignored: the first 32
    repeats' sums and conversions use the register's mask (set by
    set_vector_mask, normal mode), then the devkit's zero fill leaves the
    register all ones, so the max step and later chunks take every
    element; the register is left all ones."""
    api = "asc.add_deq_relu"
    d, s0, s1 = local(dst, api, "dst"), local(src0, api, "src0"), local(src1, api, "src1")
    kw = dict(kwargs)
    a = args
    if not is_level0(a, kw):
        kw.pop("is_set_mask", None)
        if len(a) == 2 and type(a[1]) is bool:
            a = a[:1]
        _count_form(api, d, s0, s1, a, kw)
        return
    l0, mode, set_mask = level0_operands(api, "binary", dt.int32, a, kw)
    attrs = {"mask_mode": mode}
    if not set_mask:
        attrs["is_set_mask"] = 0
    _b.current().create("asc.add_deq_relu.l0", [d, s0, s1] + l0, attrs=attrs)


@usage("asc.mul_cast(dst, src0, src1, count)",
       "asc.mul_cast(dst, src0, src1, mask, repeat_times, asc.BinaryRepeatParams(...))")
def mul_cast(dst: LocalTensor, src0: LocalTensor, src1: LocalTensor, *args: Any, **kwargs: Any) -> None:
    """dst[i] = int8/uint8(half(src0[i] * src1[i])) (AscendC::MulCast):
    float16 sources; the product is rounded to half, then to the nearest
    integer (ties to even) and saturated. Forms: `(count)` and `(mask,
    repeat_times, repeat_params)`."""
    _binary_cast("asc.mul_cast", dst, src0, src1, args, kwargs, set_mask_ok=False)


@usage("asc.add_relu_cast(dst, src0, src1, count)",
       "asc.add_relu_cast(dst, src0, src1, mask, repeat_times, asc.BinaryRepeatParams(...))")
def add_relu_cast(dst: LocalTensor, src0: LocalTensor, src1: LocalTensor, *args: Any, **kwargs: Any) -> None:
    """dst[i] = T(max(src0[i] + src1[i], 0)) (AscendC::AddReluCast): the sum
    in the source type (half rounded), then converted to dst's type
    (nearest, ties to even, saturating). (src, dst): (float16, int8),
    (float32, float16), (int16, int8). Forms: `(count)` and `(mask,
    repeat_times, repeat_params, is_set_mask=True)`."""
    _binary_cast("asc.add_relu_cast", dst, src0, src1, args, kwargs)


@usage("asc.sub_relu_cast(dst, src0, src1, count)",
       "asc.sub_relu_cast(dst, src0, src1, mask, repeat_times, asc.BinaryRepeatParams(...))")
def sub_relu_cast(dst: LocalTensor, src0: LocalTensor, src1: LocalTensor, *args: Any, **kwargs: Any) -> None:
    """dst[i] = T(max(src0[i] - src1[i], 0)) (AscendC::SubReluCast), as
    add_relu_cast with a difference."""
    _binary_cast("asc.sub_relu_cast", dst, src0, src1, args, kwargs)


@usage("asc.bilinear_interpolation(dst, src0, src0_offset, src1, mask, h_repeat, repeat_mode, dst_blk_stride, "
       "v_r_offset, v_repeat, shared_tmp_buffer)")
def bilinear_interpolation(dst: LocalTensor, src0: LocalTensor, src0_offset: LocalTensor, src1: LocalTensor,
                           mask: Any, h_repeat: Any, repeat_mode: Any, dst_blk_stride: Any, v_r_offset: Any,
                           v_repeat: Any, shared_tmp_buffer: LocalTensor) -> None:
    """AscendC::BilinearInterpolation (float16). v_repeat vertical
    iterations of h_repeat horizontal ones: each horizontal iteration
    gathers 8 blocks of 32 bytes of src0 at the byte offsets of the next 8
    elements of src0_offset (uint32) and multiplies them by one element of
    src1 (repeat_mode False) or by 8 (one per block, True), rounding to
    half; the h_repeat products of a vertical iteration are summed (the
    mask's elements) into dst's repeat, whose blocks lie dst_blk_stride
    blocks apart and whose repeats v_r_offset elements apart.
    shared_tmp_buffer (uint8) holds the gathered blocks and src1 broadcast
    to blocks (src1.get_size() / 8 * 8 of them after h_repeat * v_repeat *
    256 bytes). mask: continuous (int) or bit ([mask0, mask1])."""
    api = "asc.bilinear_interpolation"
    ts = [local(t, api, n) for t, n in ((dst, "dst"), (src0, "src0"), (src0_offset, "src0_offset"),
                                         (src1, "src1"), (shared_tmp_buffer, "shared_tmp_buffer"))]
    if isinstance(mask, (list, tuple)):
        if len(mask) != 2:
            raise error(f"{api}: a bit mask is a list [mask0, mask1] of two uint64, got {len(mask)} values")
        mode = 1
        m0, m1 = _u64(mask[0], f"{api}: mask[0]"), _u64(mask[1], f"{api}: mask[1]")
    else:
        if isinstance(mask, int) and not isinstance(mask, bool) and mask < 0:
            raise error(f"{api}: mask = {mask} is negative")
        mode = 0
        m0, m1 = _u64(mask, f"{api}: mask"), _u64(0, f"{api}: mask")
    for v, lo, hi, what in ((h_repeat, 0, 255, "h_repeat"), (dst_blk_stride, 0, 65535, "dst_blk_stride"),
                            (v_r_offset, 0, 65535, "v_r_offset"), (v_repeat, 0, 255, "v_repeat")):
        _check_const(v, lo, hi, f"{api}: {what}")
    if isinstance(repeat_mode, bool):
        rm = to_scalar(int(repeat_mode), dt.bool_)
    elif isinstance(repeat_mode, Scalar) and repeat_mode.dtype == dt.bool_:
        rm = repeat_mode
    else:
        raise error(f"{api}: `repeat_mode` must be a bool, got {got(repeat_mode)}")
    ops = ts[:4] + [m0, m1, int_operand(h_repeat, f"{api}: h_repeat"), rm,
                    int_operand(dst_blk_stride, f"{api}: dst_blk_stride"),
                    int_operand(v_r_offset, f"{api}: v_r_offset"), int_operand(v_repeat, f"{api}: v_repeat"), ts[4]]
    _b.current().create("asc.bilinear_interpolation", ops, attrs={"mask_mode": mode})
