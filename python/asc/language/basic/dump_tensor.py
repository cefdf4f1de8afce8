"""Device-side debugging: printf, dump_tensor, dump_acc_chk_point,
print_time_stamp, metrics_prof_start, metrics_prof_stop (Ascend C
basic_api/kernel_operator_dump_tensor_intf.h and kernel_prof_trace_intf.h).

On the simulator every block's output is kept while the launch runs and
written to stdout at its end, block after block in block order (never
interleaved by the host threads), in the text the devkit's runtime prints
after a kernel on an NPU:

- printf: ``[AIV Block b/N] `` and the formatted text. The conversions are
  the devkit's: ``%d %i %u %x`` (with ``l`` / ``ll``), ``%f %F``, ``%p``,
  ``%s`` and ``%%``; ``%s`` takes a Python str, which goes into the format
  at compile time. A backslash-n in the format (``"\\n"``, how upstream's
  kernels write a newline) is a newline, as a real one is. Any other
  conversion, any other escape or control character, or arguments that do
  not match the conversions are a CompileError at the call.
- dump_tensor / dump_acc_chk_point: a header line ``DumpTensor: desc=D,
  addr=0xA, data_type=T, position=UB|GM, dump_size=N`` and the elements
  (``[v, v, ...]``, floats as ``%f``), or, with a ShapeInfo, the elements
  nested by its shape with ``-`` for the ones past dump_size. For a GM
  tensor addr is the byte offset in its kernel argument. A dump of more
  than 30 KB prints nothing, as the runtime's default limit drops it.
- print_time_stamp: ``descId is D, rsv is 0, timeStamp is C, pcPtr is 0,
  entry is E.`` where C is the timing model's cycle of the block's scalar
  unit and E the block's start cycle (a kernel with time stamps runs with
  the timing model, profiled or not).
- metrics_prof_start / metrics_prof_stop only mark a range for the msOpProf
  tool on an NPU: nothing happens in the simulator.
"""

from __future__ import annotations

import enum
from typing import Any, List, Optional

from ...codegen import builder as _b
from ..core.checks import describe, error, usage
from ..core.constexpr import ConstExpr
from ..core.values import GlobalAddress, GlobalTensor, LocalTensor, Scalar, const, int_operand


def _u32(x: Any, api: str, name: str) -> Scalar:
    x = ConstExpr.unwrap(x)
    if isinstance(x, (bool, enum.Enum)) or not isinstance(x, (int, Scalar)):
        raise error(f"{api}: {name} must be an integer (a uint32_t), got {describe(x)}")
    if isinstance(x, int) and not 0 <= x < 2**32:
        raise error(f"{api}: {name} = {x} does not fit uint32_t (0 to 2**32 - 1)")
    return int_operand(x, f"{api}: {name}")


def _tensor(tensor: Any, api: str) -> tuple:
    tensor = ConstExpr.unwrap(tensor)
    if isinstance(tensor, LocalTensor):
        return tensor, "local"
    if isinstance(tensor, GlobalTensor):
        return tensor._require(), "global"
    raise error(f"{api}: tensor must be a LocalTensor or a GlobalTensor, got {describe(tensor)}")


@usage("asc.dump_tensor(tensor, desc, dump_size)", "asc.dump_tensor(tensor, desc, dump_size, shape_info)")
def dump_tensor(tensor: Any, desc: Any, dump_size: Any, shape_info: Optional[Any] = None) -> None:
    """`AscendC::DumpTensor(tensor, desc, dumpSize[, shapeInfo])`: prints
    the first `dump_size` elements of a LocalTensor (in the UB) or a
    GlobalTensor after a header with `desc` (a uint32 of the user's, e.g.
    a line number), the address, type and position; with an asc.ShapeInfo
    the elements are printed nested by its shape."""
    from ..core.types import ShapeInfo

    api = "asc.dump_tensor"
    t, kind = _tensor(tensor, api)
    operands = [t, _u32(desc, api, "desc"), _u32(dump_size, api, "dump_size")]
    shape_info = ConstExpr.unwrap(shape_info)
    if shape_info is not None:
        if not isinstance(shape_info, ShapeInfo):
            raise error(f"{api}: shape_info must be an asc.ShapeInfo, got {describe(shape_info)}",
                        "hint: write asc.dump_tensor(t, desc, dump_size, asc.ShapeInfo([rows, cols]))")
        operands.append(shape_info.to_ir())
    _b.current().create(f"asc.dump_tensor.{kind}", operands)


@usage("asc.dump_acc_chk_point(tensor, index, count_off, dump_size)")
def dump_acc_chk_point(tensor: Any, index: Any, count_off: Any, dump_size: Any) -> None:
    """`AscendC::DumpAccChkPoint(tensor, index, countOff, dumpSize)`: as
    dump_tensor with `index` as its desc, from element `count_off` of the
    tensor on (a UB address that must stay 32-byte aligned)."""
    api = "asc.dump_acc_chk_point"
    t, kind = _tensor(tensor, api)
    _b.current().create(f"asc.dump_acc_chk_point.{kind}",
                        [t, _u32(index, api, "index"), _u32(count_off, api, "count_off"),
                         _u32(dump_size, api, "dump_size")])


def _escape_percent(s: str) -> str:
    return s.replace("%", "%%")


_ESCAPES = {"n": "\n", "\\": "\\", '"': '"', "'": "'"}


def _c_escapes(s: str, api: str) -> str:
    """The format as the C string literal upstream writes it verbatim would
    hold it: upstream kernels write a newline as backslash-n ("\\n"), which
    is a newline here too (as are real newlines); printf prints no other
    escape character."""
    out: List[str] = []
    i = 0
    while i < len(s):
        if s[i] == "\\":
            nxt = s[i + 1] if i + 1 < len(s) else ""
            if nxt not in _ESCAPES:
                seq = "\\" + nxt
                raise error(f"{api}: the escape {seq!r} in the format: printf prints no escape character "
                            "but a newline", 'hint: write a newline as "\\n" (or "\\\\n", as upstream does)')
            out.append(_ESCAPES[nxt])
            i += 2
        else:
            out.append(s[i])
            i += 1
    return "".join(out)


@usage('asc.printf("x = %d\\n", x)')
def printf(desc: str, *params: Any) -> None:
    """`AscendC::printf(fmt, args...)`: prints the formatted text, after
    `[AIV Block b/N] `. `%s` conversions take Python strings (put into the
    format at compile time); the others runtime or constant numbers: `%d
    %i %u %x` integers (with `l`, `ll`), `%f %F` floats, `%p` an integer or
    a GM address; `%%` a percent sign."""
    api = "asc.printf"
    desc = ConstExpr.unwrap(desc)
    if not isinstance(desc, str):
        raise error(f"{api}: the format must be a compile-time str, got {describe(desc)}",
                    'hint: write asc.printf("i = %d\\n", i)')
    if "\0" in desc:
        raise error(f"{api}: the format holds a NUL character")
    # walk the conversions: the i-th one that takes an argument takes params[i]
    pieces: List[str] = []
    operands: List[Any] = []
    k = 0
    i = 0
    while i < len(desc):
        c = desc[i]
        if c != "%":
            pieces.append(c)
            i += 1
            continue
        j = i + 1
        while j < len(desc) and desc[j] in "-+ #0123456789.l":
            j += 1
        conv = desc[j] if j < len(desc) else ""
        spec = desc[i:j + 1]
        i = j + 1
        if conv == "%" or k >= len(params):
            pieces.append(spec)  # (too few arguments: the verifier says so)
            continue
        p = ConstExpr.unwrap(params[k])
        k += 1
        if isinstance(p, str):
            if conv != "s":
                raise error(f"{api}: argument {k} is a str, which only %s prints, but its conversion is "
                            f"{spec!r}")
            if "\0" in p:
                raise error(f"{api}: argument {k} holds a NUL character")
            pieces.append(_escape_percent(p))
            continue
        pieces.append(spec)
        operands.append(_argument(p, k, api))
    for p in params[k:]:  # more arguments than conversions: the verifier says so
        p = ConstExpr.unwrap(p)
        if isinstance(p, str):
            raise error(f"{api}: {len(params)} arguments given for the {k} conversion(s) of the format")
        operands.append(_argument(p, len(operands) + 1, api))
    _b.current().create("asc.printf", operands, attrs={"format": _c_escapes("".join(pieces), api)})


def _argument(p: Any, k: int, api: str) -> Any:
    if isinstance(p, (Scalar, GlobalAddress)):
        return p
    if isinstance(p, enum.Enum):
        return const(int(p.value))
    if isinstance(p, (bool, int, float)):
        if isinstance(p, int) and not isinstance(p, bool) and not -2**63 <= p < 2**64:
            raise error(f"{api}: argument {k} = {p} does not fit 64 bits")
        return const(p)
    raise error(f"{api}: argument {k} must be a number, a runtime scalar, a GM address or a str, "
                f"got {describe(p)}")


@usage("asc.print_time_stamp(desc_id)")
def print_time_stamp(desc_id: Any) -> None:
    """`AscendC::PrintTimeStamp(descId)`: prints `desc_id` with the cycle
    the block has reached (the timing model's). The
    devkit keeps ids up to 0xffff for its own marks."""
    api = "asc.print_time_stamp"
    _b.current().create("asc.print_time_stamp", [_u32(desc_id, api, "desc_id")])


@usage("asc.metrics_prof_start()")
def metrics_prof_start() -> None:
    """`AscendC::MetricsProfStart()`: marks where the msOpProf tool starts
    collecting on an NPU; nothing in the simulator."""
    _b.current().create("asc.metrics_prof_start", [])


@usage("asc.metrics_prof_stop()")
def metrics_prof_stop() -> None:
    """`AscendC::MetricsProfStop()`: marks where the msOpProf tool stops
    collecting on an NPU; nothing in the simulator."""
    _b.current().create("asc.metrics_prof_stop", [])
